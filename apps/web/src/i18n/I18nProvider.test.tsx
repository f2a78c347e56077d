// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The fresh registry's cleanup: unmounts even when a test failed half-way (a retry starts clean). */
let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  localStorage.clear();
});

/** Loading a language pack is a dynamic import: on a busy machine it takes well over a second. */
const LOAD = { timeout: 15_000 };

/**
 * A fresh module registry: the test setup preloads every language, and these tests are about a
 * language that has not loaded yet. Everything React is imported from the same fresh registry.
 */
async function freshApp() {
  vi.resetModules();
  const { render, screen, fireEvent, cleanup, waitFor } = await import('@testing-library/react');
  unmount = cleanup;
  const { I18nProvider } = await import('./I18nProvider');
  const { useI18n } = await import('./context');
  const packs = await import('./packs');
  function Probe() {
    const { t, localize, setLocale, locale } = useI18n();
    return (
      <div>
        <p data-testid="title">{t('shell.title')}</p>
        <p data-testid="status">
          {localize({ messageKey: 'view.status.Running', params: {}, message: 'Running' })}
        </p>
        <p data-testid="locale">{locale}</p>
        <button
          type="button"
          onClick={() => {
            setLocale('zh-CN');
          }}
        >
          zh
        </button>
      </div>
    );
  }
  const app = render(
    <I18nProvider>
      <Probe />
    </I18nProvider>,
  );
  return { app, screen, fireEvent, waitFor, packs };
}

describe('I18nProvider (issue 14: the other language on demand)', () => {
  it('keeps speaking English until the Chinese pack has loaded, then switches; never a raw key', async () => {
    const { screen, fireEvent, waitFor, packs } = await freshApp();
    expect(packs.loadedPack('zh-CN')).toBeUndefined();
    expect(screen.getByTestId('title').textContent).toBe('DCS Node Pools');

    fireEvent.click(screen.getByRole('button', { name: 'zh' }));
    // Not loaded yet: the screen is still whole English, not keys.
    expect(screen.getByTestId('title').textContent).toBe('DCS Node Pools');
    expect(screen.getByTestId('locale').textContent).toBe('en');

    expect((await screen.findByText('DCS 节点池', {}, LOAD)).dataset.testid).toBe('title');
    expect(screen.getByTestId('status').textContent).toBe('运行中');
    // The page's language and the stored choice follow in an effect, after the render.
    await waitFor(() => {
      expect(document.documentElement.lang).toBe('zh-CN');
    }, LOAD);
    expect(localStorage.getItem('dcs.locale')).toBe('zh-CN');
  });

  it('starts in English and loads a stored Chinese choice that main.tsx did not preload', async () => {
    localStorage.setItem('dcs.locale', 'zh-CN');
    const { screen } = await freshApp();
    expect(screen.getByTestId('title').textContent).toBe('DCS Node Pools');
    expect(await screen.findByText('DCS 节点池', {}, LOAD)).toBeDefined();
  });
});
