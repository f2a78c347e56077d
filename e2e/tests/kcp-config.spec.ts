import { expect, expectAccessible, getJson, snap, test } from '../fixtures';

// O-EDIT-CP-CONFIG (issue 12): the control plane's kubeadm config in the bootstrap editor,
// previewed as a rolling change of the control plane, applied and read back with kubectl;
// viewers see the action disabled with the reason. dev-west's control plane is at 1.35, where
// R-BOOT-1 wants the kubelet patch and the patches directory kubeadm reads it from.

interface KcpWire {
  spec: { kubeadmConfigSpec?: { preKubeadmCommands?: string[] } };
}

test('O-EDIT-CP-CONFIG: the control plane’s commands edited in the bootstrap editor; the plan rolls its machines one at a time; kubectl reads the change back', async ({
  page,
  signIn,
  nodePools,
  stack,
}, testInfo) => {
  await signIn('operator');
  const pools = nodePools('dev-west');
  await pools.goto();
  await pools.controlPlane().getByRole('button', { name: 'Kubeadm config' }).click();
  const dialog = page.getByRole('dialog', {
    name: 'Kubeadm config of the control plane dev-west-control-plane',
  });
  // As read from the KubeadmControlPlane, the config passes the rules: nothing to preview yet.
  const preview = dialog.getByRole('button', { name: 'Preview plan' });
  await expect(preview).toBeDisabled();
  // (The seed once lacked joinConfiguration.patches.directory, which this editor cannot set:
  // R-BOOT-1 then kept Preview disabled whatever was typed.)
  await expect(dialog).not.toContainText('must be /etc/kubernetes/patches');
  const pre = dialog.getByRole('textbox', { name: 'Commands before kubeadm (one per line)' });
  const before = await pre.inputValue();
  await pre.fill(`${before ? `${before}\n` : ''}echo edited by e2e`);
  await expect(preview).toBeEnabled();
  await expectAccessible(page, testInfo, 'kcp-config-form');
  await preview.click();
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText('Change the kubeadm config of control plane');
  await expect(plan).toContainText('preKubeadmCommands');
  await expect(plan).toContainText('A rolling change of the control plane');
  await snap(page, testInfo, 'kcp-config-plan');
  await dialog.getByRole('button', { name: 'Save and roll the control plane' }).click();
  await expect(dialog).toBeHidden();
  const kcp = await getJson<KcpWire>(
    stack.kubeconfig,
    'kubeadmcontrolplanes.controlplane.cluster.x-k8s.io',
    'dev-west-control-plane',
  );
  expect(kcp.spec.kubeadmConfigSpec?.preKubeadmCommands).toContain('echo edited by e2e');
});

test('O-EDIT-CP-CONFIG for a viewer: the action is visible, disabled, and says which access review refused it', async ({
  signIn,
  nodePools,
}) => {
  await signIn('viewer');
  const pools = nodePools('dev-west');
  await pools.goto();
  const button = pools.controlPlane().getByRole('button', { name: 'Kubeadm config' });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(/patch\b.*kubeadmcontrolplane/i);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('O-EDIT-CP-CONFIG：在 Bootstrap 编辑器中修改控制平面的命令，预览滚动变更计划', async ({
    page,
    signIn,
    nodePools,
  }, testInfo) => {
    await signIn('operator');
    const pools = nodePools('prod-east');
    await pools.goto();
    await pools.controlPlane().getByRole('button', { name: 'kubeadm 配置' }).click();
    const dialog = page.getByRole('dialog', {
      name: '控制平面 prod-east-control-plane 的 kubeadm 配置',
    });
    await expect(dialog).toContainText('KubeadmControlPlane 会用按新配置引导的 machine 逐台替换');
    const post = dialog.getByRole('textbox', { name: /^kubeadm 之后执行的命令/ });
    await post.fill('echo 中文 e2e');
    await dialog.getByRole('button', { name: '预览计划' }).click();
    const plan = dialog.getByRole('region', { name: '计划' });
    await expect(plan).toContainText('postKubeadmCommands');
    await expectAccessible(page, testInfo, 'kcp-config-plan-zh');
    // Previewed only: prod-east's control plane is upgraded by another journey of this stack.
    await dialog.getByRole('button', { name: '取消' }).click();
    await expect(dialog).toBeHidden();
  });
});
