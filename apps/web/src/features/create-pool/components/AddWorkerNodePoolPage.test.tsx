// @vitest-environment happy-dom
import { formatMessage } from '@dcs/domain';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contextWire, stubApi } from '../../../test/api';
import { renderInApp } from '../../../test/render';
import { AddWorkerNodePoolPage } from './AddWorkerNodePoolPage';

beforeEach(() => {
  stubApi({ '/clusters/cpaas-system/demo/context': contextWire() });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderPage = (locale: 'en' | 'zh-CN') =>
  renderInApp(
    <MemoryRouter>
      <AddWorkerNodePoolPage namespace="cpaas-system" cluster="demo" />
    </MemoryRouter>,
    { locale },
  );

/** The text under a field (its helper text), by the field's accessible description. */
const helpOf = (input: HTMLElement) => {
  const id = input.getAttribute('aria-describedby') ?? '';
  return id
    .split(' ')
    .map((i) => document.getElementById(i)?.textContent ?? '')
    .join(' ');
};

describe('Add Worker Node Pool (U-4)', () => {
  it('R-MD-5: shows the rule’s message at the name field as it is typed', async () => {
    renderPage('en');
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    fireEvent.change(name, { target: { value: 'Demo_Pool' } });
    await waitFor(() => {
      expect(name.getAttribute('aria-invalid')).toBe('true');
    });
    expect(helpOf(name)).toContain(formatMessage('name.poolInvalid', { name: 'Demo_Pool' }, 'en'));
    fireEvent.change(name, { target: { value: 'demo-md-0' } });
    await waitFor(() => {
      expect(helpOf(name)).toContain('already exists');
    });
    fireEvent.change(name, { target: { value: 'demo-gpu' } });
    await waitFor(() => {
      expect(name.getAttribute('aria-invalid')).toBe('false');
    });
  });

  it('R-MD-5: says it in Chinese for a Chinese user', async () => {
    renderPage('zh-CN');
    const name = await screen.findByRole('textbox', { name: /^名称/ });
    fireEvent.change(name, { target: { value: 'Demo_Pool' } });
    await waitFor(() => {
      expect(helpOf(name)).toContain(
        formatMessage('name.poolInvalid', { name: 'Demo_Pool' }, 'zh-CN'),
      );
    });
  });

  it('U-4: a fresh form shows no rule message; Preview plan shows every one, then fixing clears them', async () => {
    renderPage('en');
    await screen.findByRole('textbox', { name: /^Name/ });
    expect(screen.queryByText('entries needs at least 1 item: add one.')).toBeNull();
    expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
    expect(screen.getByRole('status').textContent).toMatch(/^Fill in the fields/);

    fireEvent.click(screen.getByRole('button', { name: 'Preview plan' }));
    expect(await screen.findByText('entries needs at least 1 item: add one.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/problems? to fix/);

    fireEvent.click(screen.getByRole('button', { name: /^Suggest 1 entry/ }));
    await waitFor(() => {
      expect(screen.queryByText('entries needs at least 1 item: add one.')).toBeNull();
    });
  });

  it('U-4: editing one field shows its messages, not those of the fields still untouched', async () => {
    renderPage('en');
    const replicas = await screen.findByRole('spinbutton', { name: /^Replicas/ });
    fireEvent.change(replicas, { target: { value: '-1' } });
    await waitFor(() => {
      expect(replicas.getAttribute('aria-invalid')).toBe('true');
    });
    expect(screen.queryByText('entries needs at least 1 item: add one.')).toBeNull();
  });

  it('R-POOL-1: the entries help and the suggestion follow a typed replica count only as far as it makes sense', async () => {
    renderPage('en');
    const replicas = await screen.findByRole('spinbutton', { name: /^Replicas/ });
    fireEvent.change(replicas, { target: { value: '-1' } });
    expect(
      await screen.findByText(
        'One entry per machine, plus maxSurge for rolling updates (R-POOL-1).',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/at least -1/)).toBeNull();
    expect(screen.getByRole('button', { name: /^Suggest 1 entry/ })).toBeTruthy();
    // 20,000 suggested entries froze the page for minutes: a suggestion makes at most 1,000.
    fireEvent.change(replicas, { target: { value: '20000' } });
    expect(await screen.findByRole('button', { name: /^Suggest 1,000 entries/ })).toBeTruthy();
    expect(screen.getByText(/at least 20,000, plus maxSurge/)).toBeTruthy();
  });
});
