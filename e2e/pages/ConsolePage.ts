import { expect, type Locator, type Page } from '@playwright/test';

/** What every screen has: the bar (language, theme, session) and the cluster tabs. */
export class ConsolePage {
  constructor(readonly page: Page) {}

  /** A cluster tab by its name in the page's language ("Node Pools", "节点池"). */
  tab(name: string): Locator {
    return this.page.getByRole('tab', { name, exact: true });
  }

  async switchLanguage(to: 'English' | '简体中文'): Promise<void> {
    await this.page.getByRole('button', { name: /^(Language|语言)/ }).click();
    await this.page.getByRole('menuitem', { name: to }).click();
  }

  async openSessionMenu(): Promise<Locator> {
    await this.page.getByRole('button', { name: /^(Session of|.* 的会话)/ }).click();
    return this.page.getByRole('menu');
  }

  freshness(): Locator {
    return this.page.getByRole('status', { name: /Data freshness|数据新鲜度/ });
  }

  async expectLive(): Promise<void> {
    await expect(this.freshness()).toContainText(/Live|实时/);
  }

  dialog(name?: string | RegExp): Locator {
    return name === undefined
      ? this.page.getByRole('dialog')
      : this.page.getByRole('dialog', { name });
  }
}
