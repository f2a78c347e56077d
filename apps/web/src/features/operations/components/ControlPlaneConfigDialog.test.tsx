// @vitest-environment happy-dom
import {
  CONTROL_PLANE_POOL_ID,
  validateControlPlaneConfig,
  type KubeadmConfigSpec,
} from '@dcs/domain';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoContext, stubApi } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { ControlPlaneConfigDialog, startingConfig } from './ControlPlaneConfigDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// A control plane made for 1.34 and upgraded to 1.35 by hand: the kubelet patch file is there,
// the patches directory kubeadm would read it from is not (R-BOOT-1 at 1.35).
const withoutDirectory: KubeadmConfigSpec = {
  format: 'ignition',
  files: [
    {
      path: '/etc/kubernetes/patches/kubeletconfiguration0+strategic.json',
      owner: 'root:root',
      permissions: '0644',
      content: '{\n  "imagePullCredentialsVerificationPolicy": "NeverVerify"\n}\n',
    },
  ],
  joinConfiguration: { nodeRegistration: { name: '{{ local_hostname }}' } },
};
const current = { resourceVersion: '7', version: 'v1.35.0', kubeadmConfigSpec: withoutDirectory };
const rBoot1 = (spec: KubeadmConfigSpec) =>
  validateControlPlaneConfig(spec, withoutDirectory, 'v1.35.0', demoContext().validation).filter(
    (i) => i.rule === 'R-BOOT-1' && i.severity === 'error',
  );

describe('O-EDIT-CP-CONFIG: a control plane R-BOOT-1 refuses as it stands', () => {
  it('R-BOOT-1: the editor starts from the config made right for the version (patches directory added), not from one it cannot save', () => {
    expect(rBoot1(withoutDirectory).length).toBeGreaterThan(0);
    const start = startingConfig(current, demoContext());
    expect(start.completed).toBe(true);
    expect(start.spec.joinConfiguration?.patches).toMatchObject({
      directory: '/etc/kubernetes/patches',
    });
    expect(rBoot1(start.spec)).toEqual([]);
    // Nothing else moves: the files, the node registration.
    expect(start.spec.files).toEqual(withoutDirectory.files);
    expect(start.spec.joinConfiguration?.nodeRegistration).toEqual(
      withoutDirectory.joinConfiguration?.nodeRegistration,
    );
  });

  it('a config R-BOOT-1 accepts is shown as it is', () => {
    const right = startingConfig(current, demoContext()).spec;
    const start = startingConfig({ ...current, kubeadmConfigSpec: right }, demoContext());
    expect(start).toEqual({ spec: right, completed: false });
  });

  it('R-BOOT-1 at 1.34: the same patch is refused for the opposite reason (a 1.34 kubelet does not know the field), and made right by dropping it', () => {
    const older = startingConfig({ ...current, version: 'v1.34.1' }, demoContext());
    expect(older.completed).toBe(true);
    expect(older.spec.files?.[0]?.content).not.toContain('imagePullCredentialsVerificationPolicy');
  });

  it('the dialog says what it added, and Preview is enabled (it was disabled for good)', async () => {
    const views = demoClusterViews();
    const pool = views.pools.find((p) => p.id === CONTROL_PLANE_POOL_ID);
    if (!pool) throw new Error('the demo cluster has no control plane');
    stubApi({
      '/clusters/cpaas-system/demo/control-plane/kubeadm-config': {
        name: pool.name,
        resourceVersion: '7',
        version: 'v1.35.0',
        kubeadmConfigSpec: withoutDirectory,
      },
    });
    renderInApp(
      <ControlPlaneConfigDialog
        namespace="cpaas-system"
        cluster="demo"
        pool={pool}
        context={demoContext()}
        onClose={vi.fn()}
      />,
    );
    expect(await screen.findByText(/lacks what R-BOOT-1 asks for at v1\.35\.0/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Preview plan' }).hasAttribute('disabled')).toBe(
      false,
    );
  });
});
