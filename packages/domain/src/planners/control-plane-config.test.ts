import { describe, expect, it } from 'vitest';
import { EditControlPlaneConfigRequestSchema } from '../requests';
import type { KubeadmConfigSpec } from '../schemas/bootstrap';
import {
  aBootstrapTemplate,
  aKubeadmControlPlane,
  aValidationContext,
  KUBELET_PATCH_1_34,
  KUBELET_PATCH_1_35,
} from '../testing';
import { KUBELET_PATCH_PATH } from '../labels';
import { applyStep } from './objects';
import { canExecute, type Plan } from './plan';
import { planEditControlPlaneConfig } from './control-plane-config';
import type { KubeadmControlPlane } from '../schemas/controlplane';

const ctx = aValidationContext();
/** The control plane's config as the demo has it: the worker template's shape, init and join. */
const config = (patch = KUBELET_PATCH_1_34): KubeadmConfigSpec => {
  const base = aBootstrapTemplate().spec?.template.spec ?? {};
  return {
    ...base,
    files: [{ path: KUBELET_PATCH_PATH, owner: 'root:root', permissions: '0644', content: patch }],
    initConfiguration: {
      nodeRegistration: {
        kubeletExtraArgs: { 'node-ip': 'NODE_IP', 'provider-id': 'PROVIDER_ID' },
      },
    },
    clusterConfiguration: { clusterName: 'demo' },
  };
};
const kcp = (version = 'v1.33.4', spec = config()): KubeadmControlPlane => {
  const k = aKubeadmControlPlane({ metadata: { resourceVersion: '7' }, spec: { version } });
  if (k.spec) k.spec.kubeadmConfigSpec = spec;
  return k;
};
const plan = (spec: KubeadmConfigSpec, current = kcp(), resourceVersion = '7'): Plan =>
  planEditControlPlaneConfig(
    { resourceVersion, kubeadmConfigSpec: spec },
    { kubeadmControlPlane: current },
    ctx,
  );
const errors = (p: Plan) => p.issues.filter((i) => i.severity === 'error');

describe('planEditControlPlaneConfig (O-EDIT-CP-CONFIG)', () => {
  it('O-EDIT-CP-CONFIG: one JSON patch of the KubeadmControlPlane that tests the resourceVersion and each changed field, and rolls every machine one at a time', () => {
    const next = { ...config(), preKubeadmCommands: ['echo control-plane'] };
    const p = plan(next);
    expect(p.operation).toBe('O-EDIT-CP-CONFIG');
    expect(p.target).toEqual({ kind: 'KubeadmControlPlane', name: 'demo-control-plane' });
    expect(errors(p)).toEqual([]);
    expect(canExecute(p)).toBe(true);
    const step = p.steps[0];
    expect(step?.verb === 'patch' && step.patch.type === 'json' && step.patch.ops).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '7' },
      {
        op: 'test',
        path: '/spec/kubeadmConfigSpec/preKubeadmCommands',
        value: config().preKubeadmCommands,
      },
      {
        op: 'replace',
        path: '/spec/kubeadmConfigSpec/preKubeadmCommands',
        value: ['echo control-plane'],
      },
    ]);
    // Nothing else of the object changes: what the step leaves is the old object with the new spec.
    if (!step) throw new Error('no step');
    const after = applyStep(kcp(), step);
    expect((after?.spec as KubeadmControlPlane['spec'])?.kubeadmConfigSpec).toEqual(next);
    expect(p.effects.rollout).toEqual({ replaces: 3, atATime: 1 });
    expect(p.effects.notes?.map((n) => n.messageKey)).toEqual([
      'plan.effect.controlPlaneConfigRolls',
    ]);
    expect(p.kubectl[0]).toMatch(/^kubectl patch kubeadmcontrolplane/);
    expect(p.diffs[0]?.changes.map((c) => c.path)).toEqual([
      '/spec/kubeadmConfigSpec/preKubeadmCommands/0',
    ]);
  });

  it('O-EDIT-CP-CONFIG with R-BOOT-1: on 1.35 the kubelet patch must carry NeverVerify, on 1.34 it must not', () => {
    const on135 = plan(config(KUBELET_PATCH_1_34), kcp('v1.35.0', config(KUBELET_PATCH_1_35)));
    expect(errors(on135)).toContainEqual(
      expect.objectContaining({
        rule: 'R-BOOT-1',
        path: expect.stringMatching(/^kubeadmConfigSpec\.files/) as string,
      }),
    );
    expect(canExecute(on135)).toBe(false);
    const on134 = plan(config(KUBELET_PATCH_1_35));
    expect(errors(on134).map((i) => i.rule)).toContain('R-BOOT-1');
    const right = plan(config(KUBELET_PATCH_1_35), kcp('v1.35.0', config(KUBELET_PATCH_1_34)));
    expect(errors(right)).toEqual([]);
  });

  it('O-EDIT-CP-CONFIG with R-BOOT-2: an edited PROVIDER_ID token is an error', () => {
    const spec = config();
    const next: KubeadmConfigSpec = {
      ...spec,
      joinConfiguration: {
        ...spec.joinConfiguration,
        nodeRegistration: { kubeletExtraArgs: { 'node-ip': 'NODE_IP', 'provider-id': 'dcs://x' } },
      },
    };
    expect(errors(plan(next)).map((i) => i.rule)).toContain('R-BOOT-2');
  });

  it('O-EDIT-CP-CONFIG with R-CP-CONFIG: clusterConfiguration and the join discovery are what KubeadmControlPlane refuses to change; nodeRegistration and patches are not', () => {
    const spec = config();
    const locked = plan({
      ...spec,
      clusterConfiguration: { clusterName: 'other' },
      joinConfiguration: { ...spec.joinConfiguration, discovery: { timeout: '5m' } },
    });
    expect(errors(locked)).toEqual([
      expect.objectContaining({
        rule: 'R-CP-CONFIG',
        path: 'kubeadmConfigSpec.clusterConfiguration',
      }),
      expect.objectContaining({
        rule: 'R-CP-CONFIG',
        path: 'kubeadmConfigSpec.joinConfiguration.discovery',
      }),
    ]);
    const fine = plan({
      ...spec,
      joinConfiguration: { ...spec.joinConfiguration, patches: { directory: '/etc/other' } },
    });
    expect(errors(fine)).toEqual([]);
  });

  it('O-EDIT-CP-CONFIG: a stale resourceVersion is an error; the same config is nothing to change', () => {
    expect(errors(plan(config(), kcp(), '6')).map((i) => i.rule)).toEqual(['R-PLAN-STALE']);
    const same = plan(config());
    expect(same.steps).toEqual([]);
    expect(same.effects.notes?.map((n) => n.messageKey)).toEqual(['plan.effect.nothingToChange']);
    expect(same.effects.rollout).toBeUndefined();
  });

  it('O-EDIT-CP-CONFIG: a field the user removes is tested then removed; a field the control plane did not have is added', () => {
    const spec = config();
    const { postKubeadmCommands, ...without } = spec;
    expect(postKubeadmCommands).toBeDefined();
    const p = plan({ ...without, preKubeadmCommands: spec.preKubeadmCommands ?? [] });
    const ops =
      p.steps[0]?.verb === 'patch' && p.steps[0].patch.type === 'json' ? p.steps[0].patch.ops : [];
    expect(ops.slice(1)).toEqual([
      {
        op: 'test',
        path: '/spec/kubeadmConfigSpec/postKubeadmCommands',
        value: postKubeadmCommands,
      },
      { op: 'remove', path: '/spec/kubeadmConfigSpec/postKubeadmCommands' },
    ]);
    const bare = kcp();
    if (bare.spec?.kubeadmConfigSpec) delete bare.spec.kubeadmConfigSpec.mounts;
    const added = plan({ ...config(), mounts: [['LABEL=x', '/x']] }, bare);
    expect(
      added.steps[0]?.verb === 'patch' &&
        added.steps[0].patch.type === 'json' &&
        added.steps[0].patch.ops[1],
    ).toEqual({
      op: 'add',
      path: '/spec/kubeadmConfigSpec/mounts',
      value: [['LABEL=x', '/x']],
    });
  });

  it('O-EDIT-CP-CONFIG: a rollout in progress is said to restart toward the new config; an unknown control plane is not found', () => {
    const rolling = kcp();
    if (rolling.status) rolling.status.updatedReplicas = 1;
    const p = plan({ ...config(), preKubeadmCommands: ['x'] }, rolling);
    expect(p.effects.notes?.map((n) => n.messageKey)).toContain(
      'plan.effect.controlPlaneRolloutRestarts',
    );
    const none = planEditControlPlaneConfig(
      { resourceVersion: '1', kubeadmConfigSpec: {} },
      { kubeadmControlPlane: undefined },
      ctx,
    );
    expect(errors(none).map((i) => i.rule)).toEqual(['R-PLAN-NOT-FOUND']);
  });

  it('O-EDIT-CP-CONFIG: the request schema keeps unknown fields of the spec (a round trip loses nothing)', () => {
    const parsed = EditControlPlaneConfigRequestSchema.parse({
      resourceVersion: '7',
      kubeadmConfigSpec: { ...config(), ntp: { servers: ['10.0.0.1'] } },
    });
    expect(parsed.kubeadmConfigSpec).toMatchObject({ ntp: { servers: ['10.0.0.1'] } });
    expect(EditControlPlaneConfigRequestSchema.safeParse({ kubeadmConfigSpec: {} }).success).toBe(
      false,
    );
  });
});
