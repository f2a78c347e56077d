import { KUBELET_PATCH_PATH } from '../labels';
import type { BootstrapFile, KubeadmConfigSpec } from '../schemas/bootstrap';
import { parseKubeVersion } from '../versions';

/**
 * The worker bootstrap template of the reference (step 3), for a pool created from the form
 * without an existing KubeadmConfigTemplate.
 */

/** The provider replaces these tokens at join time; they are written verbatim (R-BOOT-2). */
export const MAGIC_TOKEN_NODE_IP = 'NODE_IP';
export const MAGIC_TOKEN_PROVIDER_ID = 'PROVIDER_ID';

/** The key of the kubelet patch in the catalog's `bootstrapFilesSecret` (reference, step 3). */
export const KUBELET_PATCH_SECRET_KEY = 'worker-kubelet-patch.json';

/** R-BOOT-1: from Kubernetes 1.35 on, the kubelet patch carries the image-pull policy. */
export function needsImagePullCredentialsPolicy(version: string): boolean {
  const v = parseKubeVersion(version);
  return v !== undefined && (v.major > 1 || (v.major === 1 && v.minor >= 35));
}

/** The kubelet patch file's content for `version` (R-BOOT-1), as the reference writes it. */
export function defaultKubeletPatch(version: string): string {
  const patch = {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    ...(needsImagePullCredentialsPolicy(version)
      ? { imagePullCredentialsVerificationPolicy: 'NeverVerify' }
      : {}),
    protectKernelDefaults: true,
    staticPodPath: null,
    tlsCertFile: '/etc/kubernetes/pki/kubelet.crt',
    tlsPrivateKeyFile: '/etc/kubernetes/pki/kubelet.key',
    streamingConnectionIdleTimeout: '5m',
    clientCAFile: '/etc/kubernetes/pki/ca.crt',
  };
  return `${JSON.stringify(patch, null, 2)}\n`;
}

export interface DefaultBootstrapInput {
  version: string;
  sshAuthorizedKeys: readonly string[];
  /**
   * The catalog's `bootstrapFilesSecret` for this version: the kubelet patch then comes from its
   * `worker-kubelet-patch.json` key instead of inline content.
   */
  filesSecret?: string;
}

/** The reference's KubeadmConfigTemplate `spec.template.spec` for a worker of `version`. */
export function defaultBootstrapSpec(input: DefaultBootstrapInput): KubeadmConfigSpec {
  const kubeletPatch: BootstrapFile = {
    path: KUBELET_PATCH_PATH,
    owner: 'root:root',
    permissions: '0644',
    ...(input.filesSecret
      ? { contentFrom: { secret: { name: input.filesSecret, key: KUBELET_PATCH_SECRET_KEY } } }
      : { content: defaultKubeletPatch(input.version) }),
  };
  return {
    format: 'ignition',
    users: [{ name: 'boot', sshAuthorizedKeys: [...input.sshAuthorizedKeys] }],
    files: [kubeletPatch],
    preKubeadmCommands: [
      'while ! ip route | grep -q "default via"; do sleep 1; done; echo "NetworkManager started"',
      'mkdir -p /run/cluster-api && restorecon -Rv /run/cluster-api',
      'if [ -f /etc/disk-setup.sh ]; then bash /etc/disk-setup.sh; fi',
    ],
    postKubeadmCommands: ['chmod 600 /var/lib/kubelet/config.yaml'],
    joinConfiguration: {
      patches: { directory: '/etc/kubernetes/patches' },
      nodeRegistration: {
        kubeletExtraArgs: {
          'node-ip': MAGIC_TOKEN_NODE_IP,
          'provider-id': MAGIC_TOKEN_PROVIDER_ID,
          'volume-plugin-dir': '/opt/libexec/kubernetes/kubelet-plugins/volume/exec/',
          'protect-kernel-defaults': 'true',
        },
      },
    },
  };
}
