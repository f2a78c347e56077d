import { expect, type Locator, type Page } from '@playwright/test';
import { ConsolePage } from './ConsolePage';

/** The Node Pools tab of a cluster (U-1, U-2, U-3). */
export class NodePoolsPage extends ConsolePage {
  constructor(
    page: Page,
    readonly namespace: string,
    readonly cluster: string,
  ) {
    super(page);
  }

  async goto(): Promise<void> {
    await this.page.goto(`/clusters/${this.namespace}/${this.cluster}/node-pools`);
    // The tab's heading in either language (a journey in Chinese goes through here too); its
    // name may go on with the freshness chip ("Node Pools Live") once the stream is up.
    await expect(
      this.page.getByRole('heading', { name: /^(Node Pools|节点池)/, level: 2 }),
    ).toBeVisible();
  }

  /** A pool's card: an article named by its title ("Control plane" for the control plane). */
  card(name: string): Locator {
    return this.page.getByRole('article', { name, exact: true });
  }

  controlPlane(): Locator {
    return this.page.getByRole('article', { name: /^(Control plane|控制平面)$/ });
  }

  /** The number above a label of a card's replica counts (U-3: desired/ready/updated/available). */
  replicas(card: Locator, label: 'Replicas' | 'Ready' | 'Updated' | 'Available'): Locator {
    return card
      .getByRole('term')
      .filter({ hasText: new RegExp(`^${label}$`) })
      .locator('xpath=preceding-sibling::dd[1]');
  }

  action(card: Locator, name: string | RegExp): Locator {
    return card.getByRole('button', { name });
  }

  addWorkerNodePool(): Locator {
    return this.page.getByRole('button', { name: 'Add Worker Node Pool' });
  }
}
