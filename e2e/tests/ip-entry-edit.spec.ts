import { writeFile } from 'node:fs/promises';
import type { TestInfo } from '@playwright/test';
import { NS, expect, getJson, kubectl, snap, test } from '../fixtures';

// Issue 12, O-EDIT-IP-POOL: an unclaimed entry's own fields (ip, mask, gateway, dns, hostname,
// machineName) are edited through the previewed plan without losing anything (R-POOL-4); a
// claimed entry's stay read-only with the reason (R-POOL-5); a viewer's Edit is disabled.
// Each test writes its own standalone pool with kubectl, so that no machine of the demo claims
// an entry while the test edits it, whatever other journeys of the worker's stack did before.

interface PoolShape {
  spec: { pool: { ip: string; mask: string; gateway: string; hostname?: string; dns?: string }[] };
}

async function applyPool(
  kubeconfig: string,
  testInfo: TestInfo,
  name: string,
  subnet: string,
): Promise<void> {
  const file = testInfo.outputPath(`${name}.json`);
  const pool = {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    kind: 'DCSIpHostnamePool',
    metadata: { name, namespace: NS },
    spec: {
      pool: [
        { ip: `${subnet}11`, mask: '24', gateway: `${subnet}1`, hostname: `${name}-1` },
        { ip: `${subnet}12`, mask: '24', gateway: `${subnet}1`, hostname: `${name}-2` },
      ],
    },
  };
  await writeFile(file, JSON.stringify(pool));
  await kubectl(kubeconfig, 'apply', '-f', file);
}

test('O-EDIT-IP-POOL: edit an unclaimed entry’s address and names through the plan; the other entry is kept (R-POOL-4); a claimed entry is read-only (R-POOL-5)', async ({
  page,
  signIn,
  stack,
}, testInfo) => {
  const name = 'entry-edit-ippool';
  await applyPool(stack.kubeconfig, testInfo, name, '10.252.0.');
  await signIn('operator');
  await page.goto(`/clusters/${NS}/prod-east/ip-pools/${name}`);
  await page.getByRole('button', { name: 'Edit entries' }).click();
  await page.getByRole('button', { name: 'Edit entry 10.252.0.11' }).click();
  const fields = page.getByRole('group', { name: 'Address and names of 10.252.0.11' });
  await expect(fields.getByRole('textbox', { name: 'IP' })).toHaveValue('10.252.0.11');
  await fields.getByRole('textbox', { name: 'IP' }).fill('10.252.0.21');
  await fields.getByRole('textbox', { name: 'Hostname' }).fill('edited-host');
  // R-POOL-3 at the field as typed; Preview stays off until it is fixed.
  const gateway = fields.getByRole('textbox', { name: 'Gateway' });
  await gateway.fill('10.252.0');
  await expect(gateway).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Preview plan' })).toBeDisabled();
  await gateway.fill('10.252.0.1');
  await expect(gateway).toHaveAttribute('aria-invalid', 'false');
  // R-POOL-2: the other entry's hostname is taken.
  await fields.getByRole('textbox', { name: 'Hostname' }).fill(`${name}-2`);
  await expect(fields.getByRole('textbox', { name: 'Hostname' })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await fields.getByRole('textbox', { name: 'Hostname' }).fill('edited-host');

  await page.getByRole('button', { name: 'Preview plan' }).click();
  const plan = page.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText(name);
  await expect(plan).toContainText('The API server accepted every step in a dry run');
  await snap(page, testInfo, 'ip-entry-edit-plan');
  await page.getByRole('button', { name: 'Apply changes' }).click();
  const entries = page.getByRole('table', { name: `Entries of ${name}` });
  await expect(entries).toContainText('10.252.0.21');
  await expect(entries).toContainText('edited-host');

  // kubectl reads back the edited entry in its place and the other entry exactly as it was.
  const written = await getJson<PoolShape>(stack.kubeconfig, 'dcsiphostnamepools', name);
  expect(written.spec.pool).toEqual([
    { ip: '10.252.0.21', mask: '24', gateway: '10.252.0.1', hostname: 'edited-host' },
    { ip: '10.252.0.12', mask: '24', gateway: '10.252.0.1', hostname: `${name}-2` },
  ]);

  // R-POOL-5: every entry of prod-east-data is held by a machine: shown, not editable, and why.
  await page.goto(`/clusters/${NS}/prod-east/ip-pools/prod-east-data-ippool`);
  await page.getByRole('button', { name: 'Edit entries' }).click();
  await page.getByRole('button', { name: 'Edit entry 10.10.2.11' }).click();
  const claimed = page.getByRole('group', { name: 'Address and names of 10.10.2.11' });
  await expect(claimed).toContainText(/holds this entry: .* stay as they are .*\(R-POOL-5\)/);
  await expect(claimed.getByRole('textbox', { name: 'IP' })).toBeDisabled();
  await expect(claimed.getByRole('textbox', { name: 'Hostname' })).toBeDisabled();
  await snap(page, testInfo, 'ip-entry-claimed');
});

test('a viewer sees the IP pool’s entries, and Edit entries is disabled with the reason', async ({
  page,
  signIn,
}) => {
  await signIn('viewer');
  await page.goto(`/clusters/${NS}/prod-east/ip-pools/prod-east-data-ippool`);
  await expect(page.getByRole('table', { name: 'Entries of prod-east-data-ippool' })).toContainText(
    '10.10.2.11',
  );
  const edit = page.getByRole('button', { name: 'Edit entries' });
  await expect(edit).toBeDisabled();
  await expect(edit).toHaveAccessibleDescription(/patch\b.*dcsiphostnamepool/i);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('编辑未被占用的 IP 条目：预览计划后应用，其他条目保持不变（R-POOL-4）', async ({
    page,
    signIn,
    stack,
  }, testInfo) => {
    const name = 'entry-edit-zh-ippool';
    await applyPool(stack.kubeconfig, testInfo, name, '10.253.0.');
    await signIn('operator');
    await page.goto(`/clusters/${NS}/prod-east/ip-pools/${name}`);
    await page.getByRole('button', { name: '编辑条目', exact: true }).click();
    await page.getByRole('button', { name: '编辑条目 10.253.0.12' }).click();
    const fields = page.getByRole('group', { name: '10.253.0.12 的地址和名称' });
    await expect(fields).toContainText('没有 machine 占用此条目');
    await fields.getByRole('textbox', { name: '主机名' }).fill('');
    await fields.getByRole('textbox', { name: /^DNS/ }).fill('10.253.0.2');
    await page.getByRole('button', { name: '预览计划' }).click();
    await expect(page.getByRole('region', { name: '计划' })).toContainText(name);
    await snap(page, testInfo, 'ip-entry-edit-plan-zh');
    await page.getByRole('button', { name: '应用修改' }).click();
    await expect(page.getByRole('button', { name: '编辑条目', exact: true })).toBeVisible();
    // The emptied hostname is gone from the table (it has no DNS column: kubectl reads that).
    await expect(page.getByRole('table', { name: `${name} 的条目` })).not.toContainText(
      `${name}-2`,
    );
    const written = await getJson<PoolShape>(stack.kubeconfig, 'dcsiphostnamepools', name);
    // The emptied hostname is removed; the first entry is as it was.
    expect(written.spec.pool).toEqual([
      { ip: '10.253.0.11', mask: '24', gateway: '10.253.0.1', hostname: `${name}-1` },
      { ip: '10.253.0.12', mask: '24', gateway: '10.253.0.1', dns: '10.253.0.2' },
    ]);
  });
});
