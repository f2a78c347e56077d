import { KUBELET_PATCH_PATH } from '../labels';
import { KUBELET_PATCHES_DIRECTORY } from '../rules/bootstrap';
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

/**
 * The kubelet patch's content set for `version` (R-BOOT-1): the field added with NeverVerify from
 * 1.35 on, removed before; every other setting of the patch kept. A patch that is not a JSON
 * object is replaced by the reference's.
 */
export function kubeletPatchContentFor(content: string, version: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return defaultKubeletPatch(version);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return defaultKubeletPatch(version);
  }
  const { imagePullCredentialsVerificationPolicy: _old, ...rest } = parsed as Record<
    string,
    unknown
  >;
  const patch = needsImagePullCredentialsPolicy(version)
    ? { ...rest, imagePullCredentialsVerificationPolicy: 'NeverVerify' }
    : rest;
  return `${JSON.stringify(patch, null, 2)}\n`;
}

/**
 * A kubeadm config (a worker bootstrap template, or the KubeadmControlPlane's
 * kubeadmConfigSpec) made right for `version` by R-BOOT-1: an inline kubelet patch gets the
 * version's setting; a patch from a Secret points at the catalog's files Secret of that version
 * when it names one; without a patch file, from 1.35 on the reference's patch is added, with the
 * patches directory kubeadm reads it from (join, and init where the config has one). Whatever
 * cannot be made right here is left for checkKubeletPatch to report.
 */
export function kubeadmConfigForVersion(
  spec: KubeadmConfigSpec,
  version: string,
  filesSecret: string | undefined,
): KubeadmConfigSpec {
  const files = spec.files ?? [];
  const hasPatch = files.some((f) => f.path === KUBELET_PATCH_PATH);
  const patches = (c: { patches?: unknown } | undefined) => ({
    ...(typeof c?.patches === 'object' && c.patches !== null ? c.patches : {}),
    directory: KUBELET_PATCHES_DIRECTORY,
  });
  // R-BOOT-1: from 1.35 kubeadm must apply the patch, so it must look in the patches directory,
  // whether the patch file is added here or was already there (a config made for ≤ 1.34 may
  // carry the file without the directory).
  const directories: Partial<KubeadmConfigSpec> = needsImagePullCredentialsPolicy(version)
    ? {
        joinConfiguration: { ...spec.joinConfiguration, patches: patches(spec.joinConfiguration) },
        ...(spec.initConfiguration
          ? {
              initConfiguration: {
                ...spec.initConfiguration,
                patches: patches(spec.initConfiguration),
              },
            }
          : {}),
      }
    : {};
  if (!hasPatch) {
    if (!needsImagePullCredentialsPolicy(version)) return spec;
    const file: BootstrapFile = {
      path: KUBELET_PATCH_PATH,
      owner: 'root:root',
      permissions: '0644',
      content: defaultKubeletPatch(version),
    };
    return { ...spec, files: [...files, file], ...directories };
  }
  return {
    ...spec,
    ...directories,
    files: files.map((f) => {
      if (f.path !== KUBELET_PATCH_PATH) return f;
      if (f.contentFrom?.secret) {
        return filesSecret
          ? {
              ...f,
              contentFrom: {
                ...f.contentFrom,
                secret: { ...f.contentFrom.secret, name: filesSecret },
              },
            }
          : f;
      }
      return { ...f, content: kubeletPatchContentFor(f.content ?? '', version) };
    }),
  };
}
