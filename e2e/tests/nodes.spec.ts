import { expect, expectAccessible, snap, test } from '../fixtures';

/**
 * Issue 12: the workload cluster's Nodes beside the machines. The simulator gives each workload
 * cluster its own API server with a kubelet that registers the Nodes, and the `<cluster>-kubeconfig`
 * Secret Cluster API writes; the BFF reads the Nodes through it with the user's rights.
 */

test('the operator sees each machine’s Node Ready with its kubelet version, and the Node’s conditions and taints on the machine page', async ({
  page,
  signIn,
  nodes,
}, testInfo) => {
  test.setTimeout(120_000);
  await signIn('operator');
  const tab = nodes('prod-east');
  await tab.goto();
  const cp = tab.rowsOfPool('Control plane').first();
  // The kubelet registers the Node once the machine has joined: wait for it, live.
  await expect(cp.locator('[data-node-state="Ready"]')).toHaveText('Ready', { timeout: 60_000 });
  await expect(tab.table().getByRole('columnheader', { name: 'Kubelet' })).toBeVisible();
  // The kubelet reports the Machine's Kubernetes version: the Version and Kubelet cells agree.
  const cells = cp.getByRole('cell');
  const version = (await cells.nth(6).textContent()) ?? '';
  expect(version).toMatch(/^v1\.\d+\.\d+$/);
  await expect(cells.nth(7)).toHaveText(version);
  await expect(page.getByTestId('nodes-unavailable')).toHaveCount(0);
  await snap(page, testInfo, 'nodes-column');

  const machine = (await cp.getByRole('link').first().textContent()) ?? '';
  await cp.getByRole('link', { name: machine, exact: true }).click();
  const section = page.getByRole('region', { name: 'Node in the workload cluster' });
  await expect(section).toContainText('Ready', { timeout: 30_000 });
  await expect(section).toContainText(version);
  // The Node's conditions, in the Machine's conditions table; a pressure that is False is healthy.
  const conditions = page.getByRole('table', { name: /^Conditions of Node / });
  await expect(conditions).toBeVisible();
  for (const type of [
    'MemoryPressure',
    'DiskPressure',
    'PIDPressure',
    'NetworkUnavailable',
    'Ready',
  ]) {
    await expect(conditions.getByRole('row').filter({ hasText: type })).toHaveAttribute(
      'data-tone',
      'ok',
    );
  }
  await expect(page.getByRole('table', { name: `Conditions of Machine ${machine}` })).toBeVisible();
  // kubeadm's taint on a control-plane Node.
  await expect(page.getByRole('table', { name: /^Taints of Node / })).toContainText(
    'node-role.kubernetes.io/control-plane',
  );
  await expectAccessible(page, testInfo, 'machine-node');
});

test('the viewer, who may not read the kubeconfig Secret (as upstream’s view role), sees why there are no Node states', async ({
  page,
  signIn,
  nodes,
}) => {
  await signIn('viewer');
  const tab = nodes('prod-east');
  await tab.goto();
  const reason = page.getByTestId('nodes-unavailable');
  await expect(reason).toHaveAccessibleName(
    'Node states are not shown: you may not read secret cpaas-system/prod-east-kubeconfig (the workload cluster’s kubeconfig).',
  );
  await expect(tab.table().locator('[data-node-state]')).toHaveCount(0);
  const machine =
    (await tab.rowsOfPool('Control plane').first().getByRole('link').first().textContent()) ?? '';
  await page.goto(`/clusters/cpaas-system/prod-east/nodes/${machine}`);
  await expect(page.getByRole('region', { name: 'Node in the workload cluster' })).toContainText(
    'you may not read secret cpaas-system/prod-east-kubeconfig',
  );
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('运维人员看到节点“就绪”和 kubelet 版本；查看者看到原因', async ({ page, signIn }) => {
    await signIn('operator');
    await page.goto('/clusters/cpaas-system/prod-east/nodes');
    const table = page.getByRole('table', { name: 'prod-east 的 machine' });
    await expect(table.locator('[data-node-state="Ready"]').first()).toHaveText('就绪', {
      timeout: 60_000,
    });
    await expect(table.getByRole('columnheader', { name: 'kubelet 版本' })).toBeVisible();
    const row = table.getByRole('row').filter({ has: page.locator('[data-node-state="Ready"]') });
    await row.first().getByRole('link').first().click();
    await expect(page.getByRole('region', { name: '工作负载集群中的节点' })).toContainText('就绪');
    await expect(page.getByRole('table', { name: /^Node .* 的状态条件$/ })).toBeVisible();

    await signIn('viewer');
    await page.goto('/clusters/cpaas-system/prod-east/nodes');
    await expect(page.getByTestId('nodes-unavailable')).toHaveAccessibleName(
      '不显示节点状态：您无权读取 Secret cpaas-system/prod-east-kubeconfig（工作负载集群的 kubeconfig）。',
    );
  });
});
