import type { Plan, RuleIssue } from '@dcs/domain';
import { kindRegistrations } from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServedFieldTrees } from '../src/requests/served-fields';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';

/**
 * Issue 11 follow-up: the fields a request may write are those of the schema the management
 * cluster serves. Here it serves a DCS provider's DCSMachineTemplate CRD with fields the domain
 * does not model (`spec.template.spec.antiAffinityGroup`, `vmConfig.cpuHotPlug`), and prunes
 * what it does not declare, as a controller-gen CRD does: a clone for O-UPGRADE-INFRA keeps the
 * extra fields and Apply writes them; a typo is still refused at Preview, at its path; a field
 * the plan sets is refused as such (R-POOL-1); `__proto__` is inert.
 */

const NS = 'cpaas-system';
const BASE = `/api/v1/clusters/${NS}/demo`;
const MT = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'DCSMachineTemplate' };
const MD = { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineDeployment' };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => v as Json;

/** The simulator's kinds, its DCSMachineTemplate replaced by a real provider's richer CRD. */
function providerKinds() {
  return kindRegistrations().map((k) => {
    if (k.kind !== 'DCSMachineTemplate' || !('openAPIV3Schema' in k)) return k;
    const schema = structuredClone(k.openAPIV3Schema) as Json;
    // A controller-gen CRD: below spec, only what it declares is kept.
    const strip = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      delete (node as Json)['x-kubernetes-preserve-unknown-fields'];
      for (const v of Object.values(node)) strip(v);
    };
    const spec = obj(obj(obj(obj(obj(schema.properties).spec).properties).template).properties)
      .spec as Json;
    strip(spec);
    const props = obj(spec.properties);
    props.antiAffinityGroup = { type: 'string' };
    obj(obj(props.vmConfig).properties).cpuHotPlug = { type: 'boolean' };
    return { ...k, openAPIV3Schema: schema };
  });
}

describe('request fields judged by the served CRD (issue 11)', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  let s: TestSession;
  const server = () => t.cluster.server.client;

  async function until(what: string, ok: () => boolean): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`never: ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  beforeAll(async () => {
    t = await startTestCluster({}, { kinds: providerKinds() });
    // The pool's current template uses the provider's extra fields (written with kubectl).
    const current = server().get({ ...MT, name: 'demo-md-0-template', namespace: NS });
    if (!current) throw new Error('the demo has no demo-md-0-template');
    const spec = structuredClone(obj(obj(obj(current.spec).template).spec)) as Json & {
      vmConfig: Json;
    };
    await server().create({
      ...MT,
      metadata: { name: 'demo-md-0-template-hp', namespace: NS },
      spec: {
        template: {
          spec: {
            ...spec,
            antiAffinityGroup: 'rack-a',
            vmConfig: { ...spec.vmConfig, cpuHotPlug: true },
          },
        },
      },
    });
    await server().patch({ ...MD, name: 'demo-md-0', namespace: NS }, 'merge', {
      spec: { template: { spec: { infrastructureRef: { name: 'demo-md-0-template-hp' } } } },
    });
    app = await buildTestApp(t, { executor: { pollMs: 20 } });
    s = new TestSession(app);
    await s.start();
    await until(
      'the cache sees the pool on its new template',
      () =>
        app.cache.stores.MachineDeployment.get(NS, 'demo-md-0')?.spec?.template.spec
          .infrastructureRef.name === 'demo-md-0-template-hp',
    );
  }, 90_000);
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  /** The pool's template spec as the console's context has it, cloned as the upgrade dialog does. */
  async function clonedSpec(): Promise<Json & { vmConfig: Json }> {
    const res = await s.request('GET', `${BASE}/context`);
    expect(res.statusCode, res.body).toBe(200);
    const ctx = res.json<{ machineTemplates: { name: string; spec: Json }[] }>();
    const tpl = ctx.machineTemplates.find((x) => x.name === 'demo-md-0-template-hp');
    if (!tpl) throw new Error('the context lacks the pool template');
    const { ipHostPoolRef: _p, providerID: _i, ...spec } = structuredClone(tpl.spec);
    return spec as Json & { vmConfig: Json };
  }
  const rv = () =>
    String(
      obj(server().get({ ...MD, name: 'demo-md-0', namespace: NS })?.metadata).resourceVersion,
    );
  const upgrade = (spec: Json, name = 'demo-md-0-template-hp-r2') => ({
    operation: 'infrastructure',
    resourceVersion: rv(),
    machineTemplate: { name, spec },
  });
  const URL = `${BASE}/nodepools/demo-md-0/upgrade`;

  it('the served schemas are read: every part judged by them, none by the domain fallback', async () => {
    const { sources } = await app.servedFields.current();
    expect(sources).toEqual({
      machineTemplateSpec: 'served',
      ipPoolEntry: 'served',
      kubeadmConfigSpec: 'served',
      controlPlaneConfigSpec: 'served',
    });
  });

  it('O-UPGRADE-INFRA: a clone keeps the fields the served CRD has beyond the domain, Preview is clean and Apply writes them', async () => {
    const spec = await clonedSpec();
    expect(spec.antiAffinityGroup).toBe('rack-a');
    const body = upgrade({
      ...spec,
      vmConfig: { ...spec.vmConfig, dcsMachineCpuSpec: { quantity: 8 } },
    });
    const dry = await s.request('POST', `${URL}?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const { verdict } = dry.json<Plan>();
    expect(verdict?.ok, JSON.stringify(verdict)).toBe(true);
    const real = await s.request('POST', URL, body);
    expect(real.statusCode, real.body).toBe(200);
    const written = server().get({ ...MT, name: 'demo-md-0-template-hp-r2', namespace: NS });
    const wspec = obj(obj(obj(written?.spec).template).spec);
    expect(wspec.antiAffinityGroup).toBe('rack-a');
    expect(obj(wspec.vmConfig).cpuHotPlug).toBe(true);
    expect(obj(obj(wspec.vmConfig).dcsMachineCpuSpec).quantity).toBe(8);
    expect(obj(wspec.ipHostPoolRef).name).toBeTruthy();
  });

  it('R-REQUEST: a field the served CRD does not declare is refused at Preview, naming its path (the server would prune it)', async () => {
    const spec = await clonedSpec();
    for (const [body, path] of [
      [upgrade({ ...spec, vmTemplateNmae: 'x' }, 'typo-1'), 'machineTemplate.spec.vmTemplateNmae'],
      [
        upgrade({ ...spec, vmConfig: { ...spec.vmConfig, cpuHotPlg: true } }, 'typo-2'),
        'machineTemplate.spec.vmConfig.cpuHotPlg',
      ],
      [upgrade({ ...spec, constructor: 'x' }, 'typo-3'), 'machineTemplate.spec.constructor'],
    ] as const) {
      const res = await s.request('POST', `${URL}?dryRun=true`, body);
      expect(res.statusCode, res.body).toBe(400);
      const details = res.json<{ details: RuleIssue[] }>().details;
      expect(details.map((d) => [d.rule, d.path, d.messageKey])).toContainEqual([
        'R-REQUEST',
        path,
        'request.unknownField',
      ]);
      expect(details.find((d) => d.path === path)?.message).toContain('is not a field of');
    }
  });

  it('R-POOL-1: ipHostPoolRef in a template spec is refused as set by the plan, though the served CRD has it; providerID as set by the provider', async () => {
    const spec = await clonedSpec();
    const res = await s.request(
      'POST',
      `${URL}?dryRun=true`,
      upgrade({ ...spec, ipHostPoolRef: { name: 'other' }, providerID: 'dcs://vm-1' }, 'owned-1'),
    );
    expect(res.statusCode, res.body).toBe(400);
    const details = res.json<{ details: RuleIssue[] }>().details;
    expect(details.map((d) => [d.rule, d.path, d.messageKey])).toEqual(
      expect.arrayContaining([
        ['R-POOL-1', 'machineTemplate.spec.ipHostPoolRef', 'request.planOwned.ipHostPoolRef'],
        ['R-REQUEST', 'machineTemplate.spec.providerID', 'request.planOwned.providerID'],
      ]),
    );
    expect(details.every((d) => d.messageKey !== 'request.unknownField')).toBe(true);
    expect(details.find((d) => d.rule === 'R-POOL-1')?.message).toContain(
      'ipHostPoolRef is set by the plan',
    );
  });

  it('__proto__ in a template spec is inert: refused with the body, never a prototype', async () => {
    const spec = await clonedSpec();
    const raw = JSON.stringify(upgrade(spec, 'proto-1')).replace(
      '"vmTemplateName"',
      '"__proto__":{"polluted":true},"vmTemplateName"',
    );
    const res = await app.inject({
      method: 'POST',
      url: `${URL}?dryRun=true`,
      payload: raw,
      headers: {
        'content-type': 'application/json',
        host: 'localhost:80',
        origin: 'http://localhost:80',
        'x-csrf-token': s.csrf,
      },
      cookies: Object.fromEntries(s.cookies),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(({} as Json).polluted).toBeUndefined();
    expect(server().get({ ...MT, name: 'proto-1', namespace: NS })).toBeUndefined();
  });

  it('a cluster whose schemas cannot be read: every part judged by the domain trees, and nothing thrown', async () => {
    const failing = new ServedFieldTrees(
      {
        request: () => Promise.reject(new Error('403: cannot get path /openapi/v3')),
      },
      app.log,
    );
    const { sources } = await failing.current();
    expect(Object.values(sources)).toEqual(['domain', 'domain', 'domain', 'domain']);
  });
});
