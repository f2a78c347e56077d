// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  localStorage.clear();
});

/**
 * A fresh module registry: the test setup preloads every language, and these tests are about a
 * language that has not loaded yet. Everything React is imported from the same fresh registry.
 */
async function freshApp() {
  vi.resetModules();
  const { render, screen, fireEvent, cleanup } = await import('@testing-library/react');
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
  return { app, screen, fireEvent, cleanup, packs };
}

describe('I18nProvider (issue 14: the other language on demand)', () => {
  it('keeps speaking English until the Chinese pack has loaded, then switches; never a raw key', async () => {
    const { screen, fireEvent, cleanup, packs } = await freshApp();
    expect(packs.loadedPack('zh-CN')).toBeUndefined();
    expect(screen.getByTestId('title').textContent).toBe('DCS Node Pools');

    fireEvent.click(screen.getByRole('button', { name: 'zh' }));
    // Not loaded yet: the screen is still whole English, not keys.
    expect(screen.getByTestId('title').textContent).toBe('DCS Node Pools');
    expect(screen.getByTestId('locale').textContent).toBe('en');

    expect((await screen.findByText('DCS 节点池')).dataset.testid).toBe('title');
    expect(screen.getByTestId('status').textContent).toBe('运行中');
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(localStorage.getItem('dcs.locale')).toBe('zh-CN');
    cleanup();
  });

  it('starts in English and loads a stored Chinese choice that main.tsx did not preload', async () => {
    localStorage.setItem('dcs.locale', 'zh-CN');
    const { screen, cleanup } = await freshApp();
    expect(screen.getByTestId('title').textContent).toBe('DCS Node Pools');
    expect(await screen.findByText('DCS 节点池')).toBeDefined();
    cleanup();
  });
});
