import { KUBELET_PATCH_PATH, parseGoDuration, type Plan } from '@dcs/domain';
import { KUBELET_PATCH_1_35 } from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { untilCached, useTestApp } from './support/harness';
import { mismatches, reader, readWritten } from './support/written';

/**
 * O-EDIT-CP-CONFIG through `POST …/control-plane/kubeadm-config` against the embedded cluster:
 * the current config read with the raw-object route, the dry-run plan (accepted by the server),
 * Apply (the applied plan is the previewed one, kubectl reads it back), the rules' refusals
 * (R-BOOT-1, R-CP-CONFIG), and someone else's change meanwhile: rebased when it touched other
 * fields, 409 when the same field.
 */

const NS = 'cpaas-system';
const URL = `/api/v1/clusters/${NS}/demo/control-plane/kubeadm-config`;
const KCP = {
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
  kind: 'KubeadmControlPlane',
  name: 'demo-control-plane',
  namespace: NS,
} as const;

interface KcpShape {
  metadata: { resourceVersion: string };
  spec: { replicas: number; kubeadmConfigSpec: Record<string, unknown> & { files?: unknown[] } };
}
interface ErrorBody {
  code: string;
  details: { rule: string; path: string; severity: string }[];
  conflict?: { fields: string[] };
}

describe('O-EDIT-CP-CONFIG route', () => {
  const h = useTestApp({ app: { executor: { pollMs: 20 } } });
  const server = () => h.server();
  const kcp = () => server().get(KCP) as unknown as KcpShape;

  /** Until the app's cache holds the server's current version of the object. */
  const settle = () =>
    untilCached(h.app, 'KubeadmControlPlane', NS, KCP.name, kcp().metadata.resourceVersion);

  /** What the web's editor starts from: the config in the console's model. */
  async function seen(): Promise<KcpShape> {
    const res = await h.s.request('GET', URL);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ resourceVersion: string; kubeadmConfigSpec: unknown }>();
    return {
      metadata: { resourceVersion: body.resourceVersion },
      spec: { kubeadmConfigSpec: body.kubeadmConfigSpec },
    } as unknown as KcpShape;
  }

  it('GET gives the config as the request speaks it, whatever the cluster serves: kubeletExtraArgs a map where v1beta2 has a list', async () => {
    await server().patch(KCP, 'merge', {
      spec: {
        kubeadmConfigSpec: {
          joinConfiguration: { nodeRegistration: { kubeletExtraArgs: { 'node-ip': 'NODE_IP' } } },
        },
      },
    });
    await settle();
    const res = await h.s.request('GET', URL);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{
      name: string;
      resourceVersion: string;
      kubeadmConfigSpec: {
        joinConfiguration?: { nodeRegistration?: { kubeletExtraArgs?: unknown } };
      };
    }>();
    expect(body.name).toBe(KCP.name);
    expect(body.resourceVersion).toBe(kcp().metadata.resourceVersion);
    expect(body.kubeadmConfigSpec.joinConfiguration?.nodeRegistration?.kubeletExtraArgs).toEqual({
      'node-ip': 'NODE_IP',
    });
    // The raw route (the YAML view) shows the served version: on v1.14, v1beta2's list.
    const raw = await h.s.request(
      'GET',
      `/api/v1/namespaces/${NS}/objects/KubeadmControlPlane/${KCP.name}`,
    );
    const served = raw.json<{
      apiVersion: string;
      spec: { kubeadmConfigSpec: typeof body.kubeadmConfigSpec };
    }>();
    if (served.apiVersion.endsWith('/v1beta2')) {
      expect(
        served.spec.kubeadmConfigSpec.joinConfiguration?.nodeRegistration?.kubeletExtraArgs,
      ).toEqual([{ name: 'node-ip', value: 'NODE_IP' }]);
    }
    // An unknown cluster is a 404.
    const missing = await h.s.request(
      'GET',
      '/api/v1/clusters/cpaas-system/nope/control-plane/kubeadm-config',
    );
    expect(missing.statusCode).toBe(404);
  });

  it('O-EDIT-CP-CONFIG: Preview returns the plan the server accepted; Apply writes exactly it, and kubectl reads it back', async () => {
    await settle();
    const base = await seen();
    const spec = {
      ...base.spec.kubeadmConfigSpec,
      preKubeadmCommands: ['echo control-plane edited'],
    };
    const body = { resourceVersion: base.metadata.resourceVersion, kubeadmConfigSpec: spec };
    const dry = await h.s.request('POST', `${URL}?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const { verdict, ...plan } = dry.json<Plan>();
    expect(plan.operation).toBe('O-EDIT-CP-CONFIG');
    expect(plan.steps.map((x) => [x.verb, x.kind, x.name])).toEqual([
      ['patch', 'KubeadmControlPlane', KCP.name],
    ]);
    expect(verdict?.ok, JSON.stringify(verdict)).toBe(true);
    expect(plan.effects.rollout).toEqual({ replaces: 3, atATime: 1 });
    expect(kcp().metadata.resourceVersion).toBe(body.resourceVersion);

    const real = await h.s.request('POST', URL, body);
    expect(real.statusCode, real.body).toBe(200);
    const applied = real.json<{ plan: Plan; execution: { ok: boolean } }>();
    expect(applied.execution.ok).toBe(true);
    expect(applied.plan).toEqual(plan);
    const read = await readWritten(h.t.kubeconfig, plan);
    expect(mismatches(plan, read, new Set()), reader).toEqual([]);
    expect(kcp().spec.kubeadmConfigSpec).toEqual(spec);
  });

  it('O-EDIT-CP-CONFIG with R-BOOT-1 and R-CP-CONFIG: a 1.35 patch on a 1.33 control plane, or a changed clusterConfiguration, is a 422 naming the rule and field; nothing is written', async () => {
    await settle();
    const base = await seen();
    const rv = base.metadata.resourceVersion;
    // The demo's control plane runs 1.33: a kubelet patch with NeverVerify is R-BOOT-1's error.
    const withNeverVerify = [
      {
        path: KUBELET_PATCH_PATH,
        owner: 'root:root',
        permissions: '0644',
        content: KUBELET_PATCH_1_35,
      },
    ];
    const boot = await h.s.request('POST', `${URL}?dryRun=true`, {
      resourceVersion: rv,
      kubeadmConfigSpec: { ...base.spec.kubeadmConfigSpec, files: withNeverVerify },
    });
    expect(boot.statusCode, boot.body).toBe(422);
    expect(boot.json<ErrorBody>().details).toContainEqual(
      expect.objectContaining({ rule: 'R-BOOT-1', severity: 'error' }),
    );
    const locked = await h.s.request('POST', `${URL}?dryRun=true`, {
      resourceVersion: rv,
      kubeadmConfigSpec: {
        ...base.spec.kubeadmConfigSpec,
        clusterConfiguration: { clusterName: 'x' },
      },
    });
    expect(locked.statusCode, locked.body).toBe(422);
    expect(locked.json<ErrorBody>().details[0]).toMatchObject({
      rule: 'R-CP-CONFIG',
      path: 'kubeadmConfigSpec.clusterConfiguration',
    });
    expect(kcp().metadata.resourceVersion).toBe(rv);
  });

  it('O-EDIT-CP-CONFIG: someone else changed another field meanwhile: rebased and applied, theirs kept', async () => {
    await settle();
    const base = await seen();
    await server().patch(KCP, 'merge', { spec: { machineTemplate: { nodeDrainTimeout: '2m' } } });
    await settle();
    const res = await h.s.request('POST', URL, {
      resourceVersion: base.metadata.resourceVersion,
      kubeadmConfigSpec: { ...base.spec.kubeadmConfigSpec, postKubeadmCommands: ['echo after'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ rebased: { kind: string }[] }>().rebased).toMatchObject([
      { kind: 'KubeadmControlPlane' },
    ]);
    const after = server().get(KCP) as unknown as {
      spec: {
        machineTemplate: { nodeDrainTimeout: string };
        kubeadmConfigSpec: { postKubeadmCommands: string[] };
      };
    };
    // Read back as Go prints it where the server stores seconds (v1.14: '2m0s').
    expect(parseGoDuration(after.spec.machineTemplate.nodeDrainTimeout)).toBe(
      parseGoDuration('2m'),
    );
    expect(after.spec.kubeadmConfigSpec.postKubeadmCommands).toEqual(['echo after']);
  });

  it('O-EDIT-CP-CONFIG: someone else changed the same field meanwhile: 409, and theirs is kept', async () => {
    await settle();
    const base = await seen();
    await server().patch(KCP, 'merge', {
      spec: { kubeadmConfigSpec: { preKubeadmCommands: ['echo theirs'] } },
    });
    await settle();
    const res = await h.s.request('POST', URL, {
      resourceVersion: base.metadata.resourceVersion,
      kubeadmConfigSpec: { ...base.spec.kubeadmConfigSpec, preKubeadmCommands: ['echo mine'] },
    });
    expect(res.statusCode, res.body).toBe(409);
    const body = res.json<ErrorBody>();
    expect(body.details[0]?.rule).toBe('R-PLAN-STALE');
    expect(body.conflict?.fields.join(' ')).toContain('/spec/kubeadmConfigSpec/preKubeadmCommands');
    expect(kcp().spec.kubeadmConfigSpec.preKubeadmCommands).toEqual(['echo theirs']);
  });

  it('O-EDIT-CP-CONFIG: an unknown cluster is a 404; a body without resourceVersion a 400 naming it', async () => {
    const missing = await h.s.request(
      'POST',
      `/api/v1/clusters/${NS}/nope/control-plane/kubeadm-config?dryRun=true`,
      { resourceVersion: '1', kubeadmConfigSpec: {} },
    );
    expect(missing.statusCode, missing.body).toBe(404);
    const bad = await h.s.request('POST', `${URL}?dryRun=true`, { kubeadmConfigSpec: {} });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json<ErrorBody>().details[0]).toMatchObject({ path: 'resourceVersion' });
  });
});
