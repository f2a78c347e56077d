import { describe, expect, it } from 'vitest';
import { KUBELET_PATCH_PATH } from '../labels';
import type { KubeadmConfigSpec } from '../schemas/bootstrap';
import {
  KUBELET_PATCH_1_34,
  KUBELET_PATCH_1_35,
  aBootstrapTemplate,
  aValidationContext,
} from '../testing';
import {
  checkBootstrapInPlaceEdit,
  checkKubeletPatch,
  checkMagicTokens,
  checkNewBootstrapName,
  imagePullPolicyOf,
} from './bootstrap';
import type { RuleIssue } from './issue';
import { expectIssues } from './test-support';

function table(
  rule: string,
  cases: readonly { name: string; run: () => RuleIssue[]; expected: string[] }[],
) {
  for (const c of cases) {
    it(`${rule}: ${c.name}`, () => {
      expectIssues(c.run(), c.expected);
    });
  }
}

const ctx = aValidationContext();
const base: KubeadmConfigSpec = aBootstrapTemplate().spec?.template.spec ?? {};
const withPatch = (
  file: Partial<NonNullable<KubeadmConfigSpec['files']>[number]>,
): KubeadmConfigSpec => ({
  ...base,
  files: [{ path: KUBELET_PATCH_PATH, owner: 'root:root', permissions: '0644', ...file }],
});
const inline = (content: string) => withPatch({ content });
const fromSecret = (name: string, key = 'worker-kubelet-patch.json') =>
  withPatch({ contentFrom: { secret: { name, key } } });
const secrets = aValidationContext({
  bootstrapSecrets: [
    {
      name: 'dcs-kubernetes-1.35-files',
      data: { 'worker-kubelet-patch.json': KUBELET_PATCH_1_35 },
    },
    {
      name: 'dcs-kubernetes-1.33-files',
      data: { 'worker-kubelet-patch.json': KUBELET_PATCH_1_34 },
    },
  ],
});
const F = 'bootstrap.spec.files';

describe('R-BOOT-1 imagePullCredentialsVerificationPolicy', () => {
  table('R-BOOT-1', [
    {
      name: 'accepts a 1.34 patch without the policy at 1.34',
      run: () => checkKubeletPatch(inline(KUBELET_PATCH_1_34), 'v1.34.1', ctx, 'bootstrap.spec'),
      expected: [],
    },
    {
      name: 'accepts a 1.35 patch with NeverVerify at 1.35',
      run: () => checkKubeletPatch(inline(KUBELET_PATCH_1_35), 'v1.35.0', ctx, 'bootstrap.spec'),
      expected: [],
    },
    {
      name: 'rejects a patch without NeverVerify at 1.35',
      run: () => checkKubeletPatch(inline(KUBELET_PATCH_1_34), 'v1.35.0', ctx, 'bootstrap.spec'),
      expected: [`error R-BOOT-1 ${F}.0.content boot.neverVerifyMissing`],
    },
    {
      name: 'rejects NeverVerify at 1.34',
      run: () => checkKubeletPatch(inline(KUBELET_PATCH_1_35), 'v1.34.1', ctx, 'bootstrap.spec'),
      expected: [`error R-BOOT-1 ${F}.0.content boot.neverVerifyForbidden`],
    },
    {
      name: 'rejects another policy value at 1.35',
      run: () =>
        checkKubeletPatch(
          inline(KUBELET_PATCH_1_35.replace('NeverVerify', 'AlwaysVerify')),
          'v1.35.0',
          ctx,
          'bootstrap.spec',
        ),
      expected: [`error R-BOOT-1 ${F}.0.content boot.neverVerifyWrongValue`],
    },
    {
      name: 'reads a YAML patch too',
      run: () =>
        checkKubeletPatch(
          inline(
            'kind: KubeletConfiguration\nimagePullCredentialsVerificationPolicy: NeverVerify\n',
          ),
          'v1.35.0',
          ctx,
          'bootstrap.spec',
        ),
      expected: [],
    },
    {
      name: 'requires the patch file at 1.35',
      run: () => checkKubeletPatch({ ...base, files: [] }, 'v1.35.0', ctx, 'bootstrap.spec'),
      expected: [`error R-BOOT-1 ${F} boot.patchMissing`],
    },
    {
      name: 'needs no patch file at 1.33',
      run: () => checkKubeletPatch({ ...base, files: [] }, 'v1.33.4', ctx, 'bootstrap.spec'),
      expected: [],
    },
    {
      name: 'rejects a patch file with neither content nor contentFrom at 1.35',
      run: () => checkKubeletPatch(withPatch({}), 'v1.35.0', ctx, 'bootstrap.spec'),
      expected: [`error R-BOOT-1 ${F}.0 boot.patchEmpty`],
    },
    {
      name: 'accepts contentFrom.secret whose key has NeverVerify at 1.35',
      run: () =>
        checkKubeletPatch(
          fromSecret('dcs-kubernetes-1.35-files'),
          'v1.35.0',
          secrets,
          'bootstrap.spec',
        ),
      expected: [],
    },
    {
      name: 'rejects contentFrom.secret whose key lacks NeverVerify at 1.35',
      run: () =>
        checkKubeletPatch(
          fromSecret('dcs-kubernetes-1.33-files'),
          'v1.35.0',
          secrets,
          'bootstrap.spec',
        ),
      expected: [`error R-BOOT-1 ${F}.0.contentFrom.secret boot.neverVerifyMissing`],
    },
    {
      name: 'rejects contentFrom.secret whose key has NeverVerify at 1.33',
      run: () =>
        checkKubeletPatch(
          fromSecret('dcs-kubernetes-1.35-files'),
          'v1.33.4',
          secrets,
          'bootstrap.spec',
        ),
      expected: [`error R-BOOT-1 ${F}.0.contentFrom.secret boot.neverVerifyForbidden`],
    },
    {
      name: 'warns when the secret cannot be read, saying what to check',
      run: () => checkKubeletPatch(fromSecret('unreadable'), 'v1.35.0', secrets, 'bootstrap.spec'),
      expected: [`warning R-BOOT-1 ${F}.0.contentFrom.secret boot.patchSecretUnknownNeeds`],
    },
    {
      name: 'warns about an unknown key of a known secret',
      run: () =>
        checkKubeletPatch(
          fromSecret('dcs-kubernetes-1.33-files', 'other.json'),
          'v1.33.4',
          secrets,
          'bootstrap.spec',
        ),
      expected: [`warning R-BOOT-1 ${F}.0.contentFrom.secret boot.patchSecretUnknownForbids`],
    },
    {
      name: 'requires the patches directory at 1.35 (else kubeadm ignores the patch)',
      run: () =>
        checkKubeletPatch(
          {
            ...inline(KUBELET_PATCH_1_35),
            joinConfiguration: { nodeRegistration: base.joinConfiguration?.nodeRegistration },
          },
          'v1.35.0',
          ctx,
          'bootstrap.spec',
        ),
      expected: [
        'error R-BOOT-1 bootstrap.spec.joinConfiguration.patches.directory boot.patchesDirectory',
      ],
    },
  ]);

  it('R-BOOT-1: reads the policy from JSON or text', () => {
    expect(imagePullPolicyOf(KUBELET_PATCH_1_35)).toBe('NeverVerify');
    expect(imagePullPolicyOf(KUBELET_PATCH_1_34)).toBeUndefined();
    expect(imagePullPolicyOf('{"imagePullCredentialsVerificationPolicy": null}')).toBeNull();
    expect(imagePullPolicyOf('imagePullCredentialsVerificationPolicy: "NeverVerify"')).toBe(
      'NeverVerify',
    );
  });
});

describe('R-BOOT-2 magic tokens', () => {
  const args = (a: Record<string, string>): KubeadmConfigSpec => ({
    ...base,
    joinConfiguration: { ...base.joinConfiguration, nodeRegistration: { kubeletExtraArgs: a } },
  });
  const A = 'bootstrap.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs';
  const withCommand = (cmd: string): KubeadmConfigSpec => ({
    ...base,
    preKubeadmCommands: [...(base.preKubeadmCommands ?? []), cmd],
  });
  table('R-BOOT-2', [
    {
      name: 'accepts provider-id PROVIDER_ID and node-ip NODE_IP',
      run: () => checkMagicTokens(base, 'bootstrap.spec'),
      expected: [],
    },
    {
      name: 'rejects a provider-id that is not the token',
      run: () =>
        checkMagicTokens(
          args({ 'provider-id': 'dcs://worker-1', 'node-ip': 'NODE_IP' }),
          'bootstrap.spec',
        ),
      expected: [`error R-BOOT-2 ${A}.provider-id boot.tokenAltered`],
    },
    {
      name: 'rejects a node-ip written as a variable',
      run: () =>
        checkMagicTokens(
          args({ 'provider-id': 'PROVIDER_ID', 'node-ip': '${NODE_IP}' }),
          'bootstrap.spec',
        ),
      expected: [`error R-BOOT-2 ${A}.node-ip boot.tokenAltered`],
    },
    {
      name: 'warns about a missing node-ip in a new template',
      run: () => checkMagicTokens(args({ 'provider-id': 'PROVIDER_ID' }), 'bootstrap.spec'),
      expected: [`warning R-BOOT-2 ${A} boot.tokenArgMissing`],
    },
    {
      name: 'rejects removing provider-id from the template it was copied from',
      run: () => checkMagicTokens(args({ 'node-ip': 'NODE_IP' }), 'bootstrap.spec', base),
      expected: [`error R-BOOT-2 ${A} boot.tokenArgRemoved`],
    },
    {
      name: 'rejects an edit of a token elsewhere in the copied template',
      run: () =>
        checkMagicTokens(
          withCommand('echo node_ip'),
          'bootstrap.spec',
          withCommand('echo NODE_IP'),
        ),
      expected: ['error R-BOOT-2 bootstrap.spec.preKubeadmCommands.1 boot.tokenEdited'],
    },
    {
      name: 'accepts a token moved with its command',
      run: () => {
        const from = withCommand('echo NODE_IP');
        const to = { ...from, preKubeadmCommands: ['true', ...(from.preKubeadmCommands ?? [])] };
        return checkMagicTokens(to, 'bootstrap.spec', from);
      },
      expected: [],
    },
  ]);
});

describe('R-BOOT-3 editing in place does not roll', () => {
  table('R-BOOT-3', [
    {
      name: 'warns when a template some pool uses is edited in place',
      run: () => checkBootstrapInPlaceEdit('demo-md-0-kct', ['demo-md-0'], 'spec'),
      expected: ['warning R-BOOT-3 spec boot.inPlaceEdit'],
    },
    {
      name: 'says nothing for a template no pool uses',
      run: () => checkBootstrapInPlaceEdit('spare-kct', []),
      expected: [],
    },
    {
      name: 'rejects a clone under a name already taken',
      run: () => checkNewBootstrapName('demo-md-0-kct', ctx, 'bootstrap.name'),
      expected: ['error R-BOOT-3 bootstrap.name boot.nameInUse'],
    },
    {
      name: 'accepts a clone under a new name',
      run: () => checkNewBootstrapName('demo-md-0-kct-2', ctx, 'bootstrap.name'),
      expected: [],
    },
  ]);
});
