import { expect, kubectl, snap, test } from '../fixtures';

test('O-UPGRADE-INFRA: clone the template with more CPU, see the diff and the rolling update, follow it live', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  test.setTimeout(240_000);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const card = pools.card('prod-east-legacy');
  await card.getByRole('button', { name: 'Upgrade', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade prod-east-legacy' });
  await expect(dialog.getByRole('tab', { name: 'Machine infrastructure' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(dialog.getByLabel(/^New machine template name/)).toHaveValue(/-r2$/);
  await dialog.getByLabel(/^CPU \(cores\)/).fill('8');
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText('O-UPGRADE-INFRA');
  await expect(plan).toContainText(/Replaces 3 machines, at most \d+ at a time/);
  await plan.getByRole('button', { name: /DCSMachineTemplate .*-r2/ }).click();
  await expect(plan).toContainText('dcsMachineCpuSpec/quantity');
  await snap(page, testInfo, 'upgrade-infra-plan');
  await dialog.getByRole('button', { name: 'Upgrade', exact: true }).click();
  await expect(dialog).toBeHidden();
  // The rolling update, followed live on the card, until every machine is of the new template.
  await expect(card).toContainText(/-r2/);
  await expect(card).toContainText(/8 CPU/);
  await expect(pools.replicas(card, 'Updated')).toHaveText('3', { timeout: 150_000 });
  await expect(pools.replicas(card, 'Ready')).toHaveText('3', { timeout: 150_000 });
});

test('U-2, O-UPGRADE-CP then O-UPGRADE-K8S: the control plane first (its kubelet patch per R-BOOT-1), then a worker pool, followed live', async ({
  page,
  signIn,
  nodePools,
  stack,
}, testInfo) => {
  test.setTimeout(420_000);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const cp = pools.controlPlane();
  // U-2: the upgrade indicator from the versions catalog leads to O-UPGRADE-CP.
  await expect(cp).toContainText('v1.35.0 available');
  await cp.getByRole('button', { name: 'Upgrade to v1.35.0' }).click();
  const cpDialog = page.getByRole('dialog', { name: 'Upgrade the control plane' });
  await expect(cpDialog.getByRole('combobox', { name: /^Target version/ })).toHaveText('v1.35.0');
  await cpDialog.getByRole('button', { name: 'Preview plan' }).click();
  const cpPlan = cpDialog.getByRole('region', { name: 'Plan' });
  await expect(cpPlan).toContainText('O-UPGRADE-CP');
  await expect(cpPlan).toContainText('The API server accepted every step in a dry run');
  await snap(page, testInfo, 'upgrade-cp-plan');
  await cpDialog.getByRole('button', { name: 'Upgrade', exact: true }).click();
  await expect(cpDialog).toBeHidden();
  // R-BOOT-1 on the control plane: 1.35's kubelet patch with NeverVerify, as kubectl reads it.
  const list = JSON.parse(
    await kubectl(
      stack.kubeconfig,
      'get',
      'kubeadmcontrolplanes.controlplane.cluster.x-k8s.io',
      '-o',
      'json',
    ),
  ) as {
    items: {
      metadata: { name: string };
      spec: {
        version: string;
        kubeadmConfigSpec?: { files?: { path: string; content?: string }[] };
      };
    }[];
  };
  const kcp = list.items.find((k) => k.metadata.name.startsWith('prod-east'));
  expect(kcp?.spec.version).toBe('v1.35.0');
  const patch = kcp?.spec.kubeadmConfigSpec?.files?.find((f) =>
    f.path.startsWith('/etc/kubernetes/patches/kubeletconfiguration'),
  );
  expect(patch?.content).toMatch(/"imagePullCredentialsVerificationPolicy":\s*"NeverVerify"/);
  await expect(cp.locator('[data-fact="version"]')).toHaveText(/^v1\.35\.0/);
  await expect(pools.replicas(cp, 'Updated')).toHaveText('3', { timeout: 180_000 });
  await expect(pools.replicas(cp, 'Ready')).toHaveText('3', { timeout: 180_000 });

  // Now the workers may follow (R-MD-4).
  const card = pools.card('prod-east-data');
  await expect(card).toContainText('v1.35.0 available');
  await card.getByRole('button', { name: 'Upgrade', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade prod-east-data' });
  await dialog.getByRole('tab', { name: 'Kubernetes version' }).click();
  await expect(dialog.getByRole('combobox', { name: /^Target version/ })).toHaveText('v1.35.0');
  await expect(dialog).toContainText('VM template alauda-os-k8s-v1.35.0');
  // R-BOOT-1: 1.34 → 1.35 needs a new kubelet patch: offered by default.
  await expect(
    dialog.getByRole('checkbox', { name: /Also create bootstrap template/ }),
  ).toBeChecked();
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  await expect(dialog.getByRole('region', { name: 'Plan' })).toContainText('O-UPGRADE-K8S');
  await snap(page, testInfo, 'upgrade-k8s-plan');
  await dialog.getByRole('button', { name: 'Upgrade', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(card.locator('[data-fact="version"]')).toHaveText(/^v1\.35\.0/);
  const replicas = (await pools.replicas(card, 'Replicas').textContent()) ?? '';
  await expect(pools.replicas(card, 'Updated')).toHaveText(replicas, { timeout: 180_000 });
});
