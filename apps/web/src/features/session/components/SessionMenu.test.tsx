// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/api';
import { renderInApp } from '../../../test/render';
import { UNCONFIRMED_REFETCH_MS } from '../api/get-session';
import { SessionMenu } from './SessionMenu';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The BFF's `/session` in local mode; `confirmed: false` while the API server cannot say who. */
const session = (user: { username: string; groups: string[]; confirmed: boolean }) => ({
  authenticated: true,
  mode: 'local',
  user,
  csrfToken: 'c',
  epoch: 'e',
});

describe('SessionMenu (issue 25: only a confirmed identity is named)', () => {
  it('says the user is unknown while the server cannot say, in both languages, and asks again', async () => {
    stubApi({ '/session': session({ username: 'unknown', groups: [], confirmed: false }) });
    renderInApp(<SessionMenu />);
    expect(await screen.findByRole('button', { name: 'Session of Unknown user' })).toBeTruthy();

    // The server is back: the next ask names who it confirmed.
    stubApi({
      '/session': session({
        username: 'sim-operator',
        groups: ['system:masters'],
        confirmed: true,
      }),
    });
    expect(
      await screen.findByRole(
        'button',
        { name: 'Session of sim-operator' },
        { timeout: UNCONFIRMED_REFETCH_MS + 3_000 },
      ),
    ).toBeTruthy();
    cleanup();

    stubApi({ '/session': session({ username: 'unknown', groups: [], confirmed: false }) });
    renderInApp(<SessionMenu />, { locale: 'zh-CN' });
    expect(await screen.findByText('未知用户')).toBeTruthy();
  }, 15_000);
});
