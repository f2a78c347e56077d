import type { Locator } from '@playwright/test';
import { ConsolePage } from './ConsolePage';

/** Add Worker Node Pool (U-4), located by its labels. */
export class AddPoolPage extends ConsolePage {
  /** A field by its label; a required field's label ends with an asterisk. */
  field(label: string): Locator {
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return this.page.getByLabel(new RegExp(`^${escaped}(\\s*\\*)?$`, 'u'));
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
