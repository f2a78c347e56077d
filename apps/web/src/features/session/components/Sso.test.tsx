// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/api';
import { renderInApp } from '../../../test/render';
import { ssoRefetchMs, toSession } from '../api/get-session';
import { SessionMenu } from './SessionMenu';
import { SignInPage } from './SignInPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const sso = {
  issuer: 'http://127.0.0.1:5556',
  subject: 'operator',
  name: 'Olga Operator',
  email: 'operator@dcs.example',
  usernameClaim: 'email',
  usernameClaimValue: 'operator@dcs.example',
  usernamePrefix: '',
  groupsClaim: 'groups',
  groupsClaimValues: ['dcs-operators'],
  groupsPrefix: 'oidc:',
  tokenExpiresAt: new Date(Date.now() + 300_000).toISOString(),
};
const signedIn = {
  authenticated: true,
  mode: 'oidc',
  user: {
    username: 'operator@dcs.example',
    groups: ['oidc:dcs-operators', 'system:authenticated'],
    confirmed: true,
    sso,
  },
  csrfToken: 'c',
  epoch: 'e',
};
const at = (route: string, ui: ReactElement) => (
  <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
);
const signedOut = { authenticated: false, mode: 'oidc', csrfToken: 'c', epoch: 'e' };

describe('single sign-on in the web (issue 27)', () => {
  it('the sign-in page offers single sign-on, keeping where to go next', async () => {
    stubApi({ '/session': signedOut });
    renderInApp(at('/sign-in?next=%2Fclusters%2Fcpaas-system%2Fdemo', <SignInPage />));
    const link = await screen.findByRole('link', { name: 'Sign in with single sign-on' });
    expect(link.getAttribute('href')).toBe(
      '/api/v1/session/oidc/login?next=%2Fclusters%2Fcpaas-system%2Fdemo',
    );
    expect(screen.queryByLabelText('Token')).toBeNull();
  });

  it('says why a sign-in did not happen, in both languages; an unknown reason is a generic one', async () => {
    stubApi({ '/session': signedOut });
    renderInApp(at('/sign-in?sso_error=provider_unavailable', <SignInPage />));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The identity provider does not answer',
    );
    cleanup();
    renderInApp(at('/sign-in?sso_error=clock_skew', <SignInPage />), { locale: 'zh-CN' });
    expect((await screen.findByRole('alert')).textContent).toContain('时钟不一致');
    cleanup();
    renderInApp(at('/sign-in?sso_error=%3Cscript%3E', <SignInPage />));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The identity provider refused the sign-in',
    );
  });

  it('the user menu shows the claims and how the API server maps them', async () => {
    stubApi({ '/session': signedIn });
    renderInApp(<SessionMenu />);
    fireEvent.click(await screen.findByRole('button', { name: 'Session of operator@dcs.example' }));
    const claims = await screen.findByLabelText('Identity provider claims');
    expect(claims.textContent).toContain('http://127.0.0.1:5556');
    expect(claims.textContent).toContain('Username claim “email”operator@dcs.example');
    expect(claims.textContent).toContain('Groups claim “groups”dcs-operators (prefix oidc:)');
    expect(screen.getByText('Sign out')).toBeTruthy();
    const download = screen.getByRole('menuitem', {
      name: 'Download kubeconfig (kubectl oidc-login)',
    });
    expect(download.getAttribute('href')).toBe('/api/v1/session/kubeconfig');
  });

  it('asks for the session again shortly before the token expires (the BFF refreshes it then)', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const session = toSession({
      ...signedIn,
      mode: 'oidc',
      user: { ...signedIn.user, sso: { ...sso, tokenExpiresAt: '2026-01-01T00:05:00Z' } },
    });
    expect(ssoRefetchMs(session, now)).toBe(270_000);
    expect(ssoRefetchMs(session, now + 299_000)).toBe(5_000);
    expect(ssoRefetchMs(toSession({ ...signedIn, mode: 'token' }), now)).toBe(false);
  });
});
