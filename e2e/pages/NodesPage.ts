import { expect, type Locator, type Page } from '@playwright/test';
import { ConsolePage } from './ConsolePage';

/** The Nodes tab: every machine, virtualized (U-1, O-SCALE-DOWN-TARGETED). */
export class NodesPage extends ConsolePage {
  constructor(
    page: Page,
    readonly namespace: string,
    readonly cluster: string,
  ) {
    super(page);
  }

  async goto(): Promise<void> {
    await this.page.goto(`/clusters/${this.namespace}/${this.cluster}/nodes`);
    await expect(this.page.getByRole('heading', { name: 'Nodes', level: 2 })).toBeVisible();
  }

  table(): Locator {
    return this.page.getByRole('table', { name: `Machines of ${this.cluster}` });
  }

  row(machine: string): Locator {
    return this.table()
      .getByRole('row')
      .filter({ has: this.page.getByRole('link', { name: machine, exact: true }) });
  }

  rowsOfPool(pool: string): Locator {
    return this.table()
      .getByRole('row')
      .filter({ has: this.page.getByRole('link', { name: pool, exact: true }) });
  }

  async filterPool(pool: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Pool' }).click();
    await this.page.getByRole('option', { name: pool, exact: true }).click();
  }

  select(machine: string): Locator {
    return this.page.getByRole('checkbox', { name: `Select ${machine}` });
  }

  deleteSelected(): Locator {
    return this.page.getByRole('button', { name: /^Delete selected machines/ });
  }
}
