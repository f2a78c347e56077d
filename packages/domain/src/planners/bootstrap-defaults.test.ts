import { describe, expect, it } from 'vitest';
import { KUBELET_PATCH_PATH } from '../labels';
import { KubeadmConfigSpecSchema } from '../schemas/bootstrap';
import {
  defaultBootstrapSpec,
  defaultKubeletPatch,
  needsImagePullCredentialsPolicy,
} from './bootstrap-defaults';

const keys = ['ssh-ed25519 AAAAC3 ops@example'];

describe('defaultBootstrapSpec', () => {
  it('O-CREATE-POOL: follows the reference’s KubeadmConfigTemplate (step 3)', () => {
    const spec = defaultBootstrapSpec({ version: 'v1.33.4', sshAuthorizedKeys: keys });
    expect(KubeadmConfigSpecSchema.parse(spec)).toEqual(spec);
    expect(spec).toEqual({
      format: 'ignition',
      users: [{ name: 'boot', sshAuthorizedKeys: keys }],
      files: [
        {
          path: '/etc/kubernetes/patches/kubeletconfiguration0+strategic.json',
          owner: 'root:root',
          permissions: '0644',
          content: defaultKubeletPatch('v1.33.4'),
        },
      ],
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
            'node-ip': 'NODE_IP',
            'provider-id': 'PROVIDER_ID',
            'volume-plugin-dir': '/opt/libexec/kubernetes/kubelet-plugins/volume/exec/',
            'protect-kernel-defaults': 'true',
          },
        },
      },
    });
  });

  it('R-BOOT-1: the kubelet patch carries imagePullCredentialsVerificationPolicy NeverVerify from 1.35 on only', () => {
    const v135 = JSON.parse(defaultKubeletPatch('1.35.0')) as Record<string, unknown>;
    const v134 = JSON.parse(defaultKubeletPatch('v1.34.9')) as Record<string, unknown>;
    expect(v135.imagePullCredentialsVerificationPolicy).toBe('NeverVerify');
    expect(v134).not.toHaveProperty('imagePullCredentialsVerificationPolicy');
    expect(v135).toEqual({
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      imagePullCredentialsVerificationPolicy: 'NeverVerify',
      protectKernelDefaults: true,
      staticPodPath: null,
      tlsCertFile: '/etc/kubernetes/pki/kubelet.crt',
      tlsPrivateKeyFile: '/etc/kubernetes/pki/kubelet.key',
      streamingConnectionIdleTimeout: '5m',
      clientCAFile: '/etc/kubernetes/pki/ca.crt',
    });
    expect(defaultKubeletPatch('v1.35.0')).toContain(
      '"imagePullCredentialsVerificationPolicy": "NeverVerify"',
    );
    expect(
      ['1.34.1', 'v1.35.0', 'v1.36.2', 'v2.0.0', 'garbage'].map(needsImagePullCredentialsPolicy),
    ).toEqual([false, true, true, true, false]);
  });

  it('R-BOOT-2: NODE_IP and PROVIDER_ID are written verbatim for the provider to replace', () => {
    const args = defaultBootstrapSpec({ version: 'v1.35.0', sshAuthorizedKeys: [] })
      .joinConfiguration?.nodeRegistration?.kubeletExtraArgs;
    expect(args?.['node-ip']).toBe('NODE_IP');
    expect(args?.['provider-id']).toBe('PROVIDER_ID');
  });

  it('R-BOOT-1: with the catalog’s files Secret, the kubelet patch comes from its worker-kubelet-patch.json key', () => {
    const spec = defaultBootstrapSpec({
      version: 'v1.33.4',
      sshAuthorizedKeys: keys,
      filesSecret: 'dcs-kubernetes-1.33-files',
    });
    expect(spec.files).toEqual([
      {
        path: KUBELET_PATCH_PATH,
        owner: 'root:root',
        permissions: '0644',
        contentFrom: {
          secret: { name: 'dcs-kubernetes-1.33-files', key: 'worker-kubelet-patch.json' },
        },
      },
    ]);
  });
});
