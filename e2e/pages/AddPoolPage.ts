import type { Locator } from '@playwright/test';
import { ConsolePage } from './ConsolePage';

/** Add Worker Node Pool (U-4), located by its labels. */
export class AddPoolPage extends ConsolePage {
  field(label: string | RegExp): Locator {
    return this.page.getByLabel(label, { exact: typeof label === 'string' });
  }

  section(name: string): Locator {
    return this.page.getByRole('group', { name, exact: true });
  }

  /** The text under a field (its rule messages). */
  async helpOf(label: string): Promise<string> {
    const input = this.field(label);
    const id = await input.getAttribute('aria-describedby');
    return id
      ? ((await this.page.locator(`[id="${id.split(' ')[0] ?? ''}"]`).textContent()) ?? '')
      : '';
  }

  previewButton(): Locator {
    return this.page.getByRole('button', { name: 'Preview plan' });
  }

  createButton(): Locator {
    return this.page.getByRole('button', { name: 'Create pool' });
  }
}
