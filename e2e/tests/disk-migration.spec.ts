import { expect, expectAccessible, NS, snap, test } from '../fixtures';

// R-DISK-5 (issue 12): a pool on the legacy disk layout (the demo's prod-east-legacy: /var/cpaas
// in its machine template, provider 1.0.16) leads from its warning to the migration plan: the
// steps in order, each with its objects, operation, effects, what the documents leave open and
// its kubectl equivalent, copyable; read-only, and saying so.

const POOL = 'prod-east-legacy';
const PLAN = `/clusters/${NS}/prod-east/node-pools/${POOL}/disk-migration`;

test('R-DISK-5: from the card’s legacy-layout warning to the migration plan: the steps in order, maxSurge 0 first, the data of each replaced VM, the kubectl of each step copied', async ({
  page,
  context,
  signIn,
  nodePools,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const problems = pools.card(POOL).getByRole('group', { name: 'Problems' });
  await expect(problems).toContainText('Legacy disk layout');
  await problems.getByRole('link', { name: 'Migration plan' }).click();
  await expect(page).toHaveURL(new RegExp(`${PLAN}$`));
  await expect(
    page.getByRole('heading', {
      level: 2,
      name: `Migrate ${POOL} to pool-managed persistent disks`,
    }),
  ).toBeVisible();
  await expect(page.getByText('Read-only guidance: this page changes nothing')).toBeVisible();

  const step = (name: string) => page.getByRole('region', { name });
  await expect(step('Step 1: DCS provider version')).toContainText('Done');
  // R-MD-3: maxSurge 0 is the next step, with the patch O-EDIT-STRATEGY would send.
  const surge = step('Step 2: maxSurge 0');
  await expect(surge).toContainText('To do');
  await expect(surge).toContainText(`Set maxSurge of ${POOL} to 0`);
  await expect(surge.getByLabel('kubectl commands of step 2', { exact: true })).toContainText(
    `kubectl patch machinedeployment ${POOL}`,
  );
  const disks = step('Step 3: A /var/cpaas persistent disk for every entry');
  await expect(disks).toContainText('After the steps before it');
  await expect(disks.getByLabel('kubectl commands of step 3', { exact: true })).toContainText(
    'kubectl patch dcsiphostnamepool',
  );
  await expect(disks).toContainText('cannot be removed from the pool once appended (R-DISK-2)');
  const roll = step('Step 4: A machine template without /var/cpaas, rolled out');
  await expect(roll).toContainText('Data on each replaced VM');
  await expect(roll.getByRole('heading', { name: 'Not settled by the documents' })).toBeVisible();
  await expect(roll.getByLabel('kubectl commands of step 4', { exact: true })).toContainText(
    'kubectl create -f -',
  );
  await expect(step('Step 5: Check the result')).toContainText(
    `kubectl get machines -n ${NS} -l cluster.x-k8s.io/deployment-name=${POOL}`,
  );

  await surge.getByRole('button', { name: 'Copy the kubectl commands of step 2' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(new RegExp(`^kubectl patch machinedeployment ${POOL} `));
  await expectAccessible(page, testInfo, 'disk-migration');
  await snap(page, testInfo, 'disk-migration');
});

test('R-DISK-5 for a viewer: the plan is guidance, so a viewer reads it too', async ({
  page,
  signIn,
}) => {
  await signIn('viewer');
  await page.goto(PLAN);
  await expect(page.getByRole('region', { name: 'Step 2: maxSurge 0' })).toContainText(
    `kubectl patch machinedeployment ${POOL}`,
  );
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('R-DISK-5：从节点池页面的旧磁盘布局标记进入迁移计划，按顺序查看步骤和 kubectl 命令', async ({
    page,
    signIn,
  }, testInfo) => {
    await signIn('operator');
    await page.goto(`/clusters/${NS}/prod-east/node-pools/${POOL}`);
    const card = page.getByRole('article', { name: POOL, exact: true });
    await card.getByRole('link', { name: '旧磁盘布局' }).click();
    await expect(page).toHaveURL(new RegExp(`${PLAN}$`));
    await expect(
      page.getByRole('heading', { level: 2, name: `将 ${POOL} 迁移到由池管理的持久磁盘` }),
    ).toBeVisible();
    await expect(page.getByText('只读指导：本页面不做任何更改')).toBeVisible();
    const surge = page.getByRole('region', { name: '第 2 步：将 maxSurge 设为 0' });
    await expect(surge).toContainText('待执行');
    await expect(surge).toContainText(`将 ${POOL} 的 maxSurge 设为 0`);
    await expect(surge.getByLabel('第 2 步的 kubectl 命令', { exact: true })).toContainText(
      `kubectl patch machinedeployment ${POOL}`,
    );
    await expect(surge.getByRole('button', { name: '复制第 2 步的 kubectl 命令' })).toBeVisible();
    const roll = page.getByRole('region', {
      name: '第 4 步：不含 /var/cpaas 的 machine 模板，并滚动更新',
    });
    await expect(roll.getByRole('heading', { name: '文档未说明' })).toBeVisible();
    await expect(roll).toContainText('被替换 VM 上的数据');
    await expectAccessible(page, testInfo, 'disk-migration-zh');
  });
});
