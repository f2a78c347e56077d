import {
  validateBootstrapSpec,
  type KubeadmConfigSpec,
  type KubeadmConfigTemplate,
  type KubeadmControlPlane,
  type MachineDeployment,
} from '@dcs/domain';
import { aValidationContext } from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { demoObjects } from './demo';
import type { Obj } from './objects';

/**
 * The demo is what the console is shown and tested against: every kubeadm config it seeds must
 * pass the console's own bootstrap rules at its version. A seeded config the rules refuse leaves
 * an editor with nothing the user can fix (the control plane's kubeadm config, O-EDIT-CP-CONFIG,
 * had no patches directory at 1.35, so its Preview stayed disabled whatever was typed).
 */

const objects = demoObjects();
const of = <T>(kind: string) => objects.filter((o) => o.kind === kind) as unknown as T[];

/** The bootstrap files Secrets as the console reads them (R-BOOT-1 looks into contentFrom). */
const bootstrapSecrets = objects
  .filter((o: Obj) => o.kind === 'Secret' && o.metadata.name.endsWith('-files'))
  .map((o) => ({
    name: o.metadata.name,
    data: Object.fromEntries(
      Object.entries((o as { data?: Record<string, string> }).data ?? {}).map(([k, v]) => [
        k,
        Buffer.from(v, 'base64').toString(),
      ]),
    ),
  }));
const ctx = aValidationContext({ bootstrapSecrets });

const errorsOf = (spec: KubeadmConfigSpec | undefined, version: string | undefined) =>
  validateBootstrapSpec(spec ?? {}, version, ctx, 'spec').filter((i) => i.severity === 'error');

describe('the demo seed passes the console’s own rules', () => {
  it('R-BOOT-1 and R-BOOT-2: each control plane’s kubeadm config at its version', () => {
    const kcps = of<KubeadmControlPlane>('KubeadmControlPlane');
    expect(kcps.map((k) => k.spec?.version)).toEqual(['v1.34.1', 'v1.35.0']);
    for (const kcp of kcps)
      expect(errorsOf(kcp.spec?.kubeadmConfigSpec, kcp.spec?.version), kcp.metadata.name).toEqual(
        [],
      );
  });

  it('R-BOOT-1 and R-BOOT-2: each worker pool’s bootstrap template at its pool’s version', () => {
    const templates = new Map(
      of<KubeadmConfigTemplate>('KubeadmConfigTemplate').map((t) => [t.metadata.name, t]),
    );
    const mds = of<MachineDeployment>('MachineDeployment');
    expect(mds.length).toBeGreaterThan(3);
    for (const md of mds) {
      const ref = md.spec?.template.spec.bootstrap.configRef?.name ?? '';
      const tpl = templates.get(ref);
      expect(tpl, `${md.metadata.name}: ${ref}`).toBeDefined();
      expect(
        errorsOf(tpl?.spec?.template.spec, md.spec?.template.spec.version),
        md.metadata.name,
      ).toEqual([]);
    }
  });
});
