import { describe, expect, it } from 'vitest';
import { fromHub, toHub } from '../conversion';
import {
  CreateHealthCheckRequestSchema,
  EditHealthCheckRequestSchema,
  requestIssues,
  type CreateHealthCheckRequest,
} from '../requests';
import { remediationDecision } from '../rules/health-check';
import type { MachineHealthCheck } from '../schemas/capi';
import { aMachineDeployment, aValidationContext } from '../testing';
import {
  healthChecksOfPool,
  planCreateHealthCheck,
  planDeleteHealthCheck,
  planEditHealthCheck,
} from './health-check';
import { applyStep } from './objects';
import { canExecute, type KubeObject } from './plan';
import { planForVersions } from './wire';

const ctx = aValidationContext();
const rules = (issues: readonly { rule: string; severity: string; path: string }[]) =>
  issues.map((i) => `${i.rule} ${i.severity} ${i.path}`);
const ready = (status: 'False' | 'Unknown', timeoutSeconds = 300) => ({
  type: 'Ready',
  status,
  timeoutSeconds,
});
const create = (o: Partial<CreateHealthCheckRequest> = {}): CreateHealthCheckRequest => ({
  unhealthyNodeConditions: [ready('False'), ready('Unknown')],
  ...o,
});
const md = aMachineDeployment({ spec: { replicas: 3 } });

function existing(o: Partial<MachineHealthCheck['spec']> = {}, name = 'demo-md-0-mhc') {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'MachineHealthCheck',
    metadata: { name, namespace: ctx.namespace, resourceVersion: '7', uid: 'u-1', generation: 1 },
    spec: {
      clusterName: 'demo',
      selector: {
        matchLabels: {
          'cluster.x-k8s.io/cluster-name': 'demo',
          'cluster.x-k8s.io/deployment-name': 'demo-md-0',
        },
      },
      unhealthyConditions: [
        { type: 'Ready', status: 'False', timeout: '5m0s' },
        { type: 'Ready', status: 'Unknown', timeout: '5m0s' },
      ],
      nodeStartupTimeout: '10m0s',
      ...o,
    },
  } as MachineHealthCheck;
}

describe('planCreateHealthCheck (O-MHC-CREATE)', () => {
  it('creates <pool>-mhc with the pool’s own selector, Go durations, the default start-up timeout; its undo deletes what it created', () => {
    const plan = planCreateHealthCheck(
      create({ maxUnhealthy: '40%' }),
      { machineDeployment: md, healthChecks: [] },
      ctx,
    );
    expect(plan.operation).toBe('O-MHC-CREATE');
    expect(plan.issues).toEqual([]);
    expect(canExecute(plan)).toBe(true);
    const step = plan.steps[0];
    if (step?.verb !== 'create') throw new Error('a create');
    expect(step.body).toEqual({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineHealthCheck',
      metadata: {
        name: 'demo-md-0-mhc',
        namespace: ctx.namespace,
        labels: { 'cluster.x-k8s.io/cluster-name': 'demo' },
      },
      spec: {
        clusterName: 'demo',
        selector: {
          matchLabels: {
            'cluster.x-k8s.io/cluster-name': 'demo',
            'cluster.x-k8s.io/deployment-name': 'demo-md-0',
          },
        },
        unhealthyConditions: [
          { type: 'Ready', status: 'False', timeout: '5m0s' },
          { type: 'Ready', status: 'Unknown', timeout: '5m0s' },
        ],
        nodeStartupTimeout: '10m0s',
        maxUnhealthy: '40%',
      },
    });
    expect(step.undo.precondition).toEqual({ uidFromCreate: true });
    expect(plan.kubectl[0]).toMatch(/^kubectl create -f - [\s\S]*"kind": "MachineHealthCheck"/u);
    expect((plan.effects.notes ?? []).map((n) => n.messageKey)).toEqual([
      'plan.effect.healthCheckWatches',
      'plan.effect.healthCheckLimit',
    ]);
  });

  it('on a v1beta2 cluster the same plan creates spec.checks and spec.remediation.triggerIf', () => {
    const plan = planCreateHealthCheck(
      create({ unhealthyRange: '[1-2]', nodeStartupTimeoutSeconds: 0 }),
      { machineDeployment: md, healthChecks: [] },
      ctx,
    );
    const sent = planForVersions(plan, () => 'v1beta2', []);
    const step = sent.steps[0];
    if (step?.verb !== 'create') throw new Error('a create');
    expect(step.body.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(step.body.spec).toEqual({
      clusterName: 'demo',
      selector: {
        matchLabels: {
          'cluster.x-k8s.io/cluster-name': 'demo',
          'cluster.x-k8s.io/deployment-name': 'demo-md-0',
        },
      },
      checks: {
        unhealthyNodeConditions: [
          { type: 'Ready', status: 'False', timeoutSeconds: 300 },
          { type: 'Ready', status: 'Unknown', timeoutSeconds: 300 },
        ],
        nodeStartupTimeoutSeconds: 0,
      },
      remediation: { triggerIf: { unhealthyInRange: '[1-2]' } },
    });
    expect(sent.kubectl[0]).toMatch(/v1beta2/u);
  });

  it('refuses a second health check over the pool’s machines (R-MHC-5), nothing to check (R-MHC-1), a short start-up timeout (R-MHC-3), a repeated condition (R-MHC-2); warns of short timeouts (R-MHC-7)', () => {
    const other = existing({}, 'someone-elses');
    const plan = planCreateHealthCheck(
      create({ unhealthyNodeConditions: [], nodeStartupTimeoutSeconds: 0 }),
      { machineDeployment: md, healthChecks: [other] },
      ctx,
    );
    expect(rules(plan.issues)).toEqual([
      'R-MHC-5 error pool',
      'R-MHC-1 error unhealthyNodeConditions',
    ]);
    expect(plan.issues[0]?.message).toContain('someone-elses');
    expect(canExecute(plan)).toBe(false);
    const twice = planCreateHealthCheck(
      create({
        unhealthyNodeConditions: [ready('False', 30), ready('False', 600)],
        nodeStartupTimeoutSeconds: 10,
      }),
      { machineDeployment: md, healthChecks: [] },
      ctx,
    );
    expect(rules(twice.issues)).toEqual([
      'R-MHC-7 warning unhealthyNodeConditions.0.timeoutSeconds',
      'R-MHC-2 error unhealthyNodeConditions.1.type',
      'R-MHC-3 error nodeStartupTimeoutSeconds',
    ]);
  });

  it('no conditions but a start-up timeout is a health check (v1beta2 allows it); a limit that never remediates is a warning (R-MHC-6)', () => {
    const plan = planCreateHealthCheck(
      create({ unhealthyNodeConditions: [], maxUnhealthy: '10%' }),
      { machineDeployment: md, healthChecks: [] },
      ctx,
    );
    // 10% of 3 rounds down to 0: no unhealthy machine is ever within the limit.
    expect(rules(plan.issues)).toEqual(['R-MHC-6 warning maxUnhealthy']);
    expect(canExecute(plan)).toBe(true);
    const range = planCreateHealthCheck(
      create({ unhealthyRange: '[4-5]' }),
      { machineDeployment: md, healthChecks: [] },
      ctx,
    );
    expect(rules(range.issues)).toEqual(['R-MHC-6 warning unhealthyRange']);
    const reversed = planCreateHealthCheck(
      create({ unhealthyRange: '[3-1]' }),
      { machineDeployment: md, healthChecks: [] },
      ctx,
    );
    expect(rules(reversed.issues)).toEqual(['R-MHC-4 error unhealthyRange']);
  });
});

describe('health-check requests (R-MHC-1..4)', () => {
  const issues = (schema: typeof CreateHealthCheckRequestSchema, body: unknown) => {
    const r = schema.safeParse(body);
    return r.success ? [] : rules(requestIssues(r.error, body));
  };
  it('names the field and the rule of each refusal', () => {
    expect(
      issues(CreateHealthCheckRequestSchema, {
        unhealthyNodeConditions: [{ type: 'Ready', status: 'Maybe', timeoutSeconds: 300 }],
      }),
    ).toEqual(['R-MHC-2 error unhealthyNodeConditions.0.status']);
    expect(
      issues(CreateHealthCheckRequestSchema, {
        unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: -1 }],
      }),
    ).toEqual(['R-MHC-2 error unhealthyNodeConditions.0.timeoutSeconds']);
    expect(
      issues(CreateHealthCheckRequestSchema, {
        unhealthyNodeConditions: [],
        nodeStartupTimeoutSeconds: 1.5,
      }),
    ).toEqual(['R-MHC-3 error nodeStartupTimeoutSeconds']);
    expect(
      issues(CreateHealthCheckRequestSchema, { unhealthyNodeConditions: [], maxUnhealthy: '40' }),
    ).toEqual(['R-MHC-4 error maxUnhealthy']);
    expect(
      issues(CreateHealthCheckRequestSchema, {
        unhealthyNodeConditions: [],
        unhealthyRange: '1-3',
      }),
    ).toEqual(['R-MHC-4 error unhealthyRange']);
    expect(
      issues(CreateHealthCheckRequestSchema, {
        unhealthyNodeConditions: [],
        maxUnhealthy: 1,
        unhealthyRange: '[1-3]',
      }),
    ).toEqual(['R-MHC-4 error unhealthyRange']);
    expect(issues(CreateHealthCheckRequestSchema, {})).toEqual([
      'R-MHC-1 error unhealthyNodeConditions',
    ]);
    expect(
      issues(CreateHealthCheckRequestSchema, { unhealthyNodeConditions: [], __proto__: 1 }),
    ).toEqual([]);
    expect(
      issues(CreateHealthCheckRequestSchema, { unhealthyNodeConditions: [], selector: {} }),
    ).toEqual(['R-REQUEST error selector']);
  });
});

describe('planEditHealthCheck (O-MHC-EDIT)', () => {
  it('one JSON patch testing the resourceVersion and each value it replaces or removes; selector untouched; undo restores', () => {
    const mhc = existing({ maxUnhealthy: '40%' });
    const req = EditHealthCheckRequestSchema.parse({
      resourceVersion: '7',
      unhealthyNodeConditions: [ready('False', 600)],
      nodeStartupTimeoutSeconds: 600,
      unhealthyRange: '[1-2]',
    });
    const plan = planEditHealthCheck(
      req,
      { machineDeployment: md, healthChecks: [mhc], healthCheck: mhc },
      ctx,
    );
    expect(plan.issues).toEqual([]);
    const step = plan.steps[0];
    if (step?.verb !== 'patch' || step.patch.type !== 'json') throw new Error('a json patch');
    expect(step.patch.ops).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '7' },
      {
        op: 'test',
        path: '/spec/unhealthyConditions',
        value: mhc.spec?.unhealthyConditions,
      },
      {
        op: 'replace',
        path: '/spec/unhealthyConditions',
        value: [{ type: 'Ready', status: 'False', timeout: '10m0s' }],
      },
      { op: 'test', path: '/spec/maxUnhealthy', value: '40%' },
      { op: 'remove', path: '/spec/maxUnhealthy' },
      { op: 'add', path: '/spec/unhealthyRange', value: '[1-2]' },
    ]);
    const after = applyStep(mhc, step);
    expect(after?.spec).toMatchObject({ selector: mhc.spec?.selector, unhealthyRange: '[1-2]' });
    expect(step.undo && applyStep(after, step.undo)?.spec).toEqual(mhc.spec);
  });

  it('a changed health check is a stale error (the 409 the route answers); the same values change nothing', () => {
    const mhc = existing();
    const same = planEditHealthCheck(
      EditHealthCheckRequestSchema.parse({
        resourceVersion: '7',
        unhealthyNodeConditions: [ready('False'), ready('Unknown')],
      }),
      { machineDeployment: md, healthChecks: [mhc], healthCheck: mhc },
      ctx,
    );
    expect(same.steps).toEqual([]);
    expect((same.effects.notes ?? []).map((n) => n.messageKey)).toEqual([
      'plan.effect.healthCheckUnchanged',
    ]);
    const stale = planEditHealthCheck(
      EditHealthCheckRequestSchema.parse({
        resourceVersion: '6',
        unhealthyNodeConditions: [ready('False')],
      }),
      { machineDeployment: md, healthChecks: [mhc], healthCheck: mhc },
      ctx,
    );
    expect(rules(stale.issues)).toEqual(['R-PLAN-STALE error resourceVersion']);
  });

  it('on a v1beta2 cluster the patch is said in v1beta2’s fields, and gives the conversion of the hub’s result', () => {
    const wire = fromHub(existing({ maxUnhealthy: 2 }) as KubeObject, 'v1beta2');
    const hub = toHub(wire) as MachineHealthCheck;
    const plan = planEditHealthCheck(
      EditHealthCheckRequestSchema.parse({
        resourceVersion: '7',
        unhealthyNodeConditions: [ready('Unknown', 120)],
        maxUnhealthy: 1,
      }),
      { machineDeployment: md, healthChecks: [hub], healthCheck: hub },
      ctx,
    );
    const sent = planForVersions(plan, () => 'v1beta2', [hub]);
    const step = sent.steps[0];
    const hubStep = plan.steps[0];
    if (step?.verb !== 'patch' || hubStep?.verb !== 'patch') throw new Error('a patch');
    const wireAfter = applyStep(wire, step);
    const hubAfter = applyStep(hub, hubStep);
    expect(wireAfter).toEqual(hubAfter && fromHub(hubAfter, 'v1beta2'));
    expect(wireAfter?.spec).toMatchObject({
      checks: {
        unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 120 }],
      },
      remediation: { triggerIf: { unhealthyLessThanOrEqualTo: 1 } },
    });
  });
});

describe('planDeleteHealthCheck (O-MHC-DELETE)', () => {
  it('deletes with the uid and resourceVersion seen; without a health check it is not found', () => {
    const mhc = existing();
    const plan = planDeleteHealthCheck(
      { resourceVersion: '7' },
      { machineDeployment: md, healthCheck: mhc },
      ctx,
    );
    expect(plan.steps[0]).toMatchObject({
      verb: 'delete',
      kind: 'MachineHealthCheck',
      name: 'demo-md-0-mhc',
      precondition: { resourceVersion: '7', uid: 'u-1' },
    });
    expect(plan.issues).toEqual([]);
    const none = planDeleteHealthCheck(
      { resourceVersion: '7' },
      { machineDeployment: md, healthCheck: undefined },
      ctx,
    );
    expect(rules(none.issues)).toEqual(['R-PLAN-NOT-FOUND error pool']);
  });
});

describe('healthChecksOfPool and remediationDecision', () => {
  it('matches by selector in the pool’s cluster; an empty selector matches all, another pool’s none', () => {
    const other = existing(
      {
        selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': 'demo-md-1' } },
      },
      'other',
    );
    const all = existing({ selector: {} }, 'all');
    const elsewhere = existing({ clusterName: 'prod' }, 'prod');
    const expr = existing(
      {
        selector: {
          matchExpressions: [
            { key: 'cluster.x-k8s.io/deployment-name', operator: 'In', values: ['demo-md-0'] },
          ],
        },
      },
      'expr',
    );
    expect(
      healthChecksOfPool(md, [other, all, elsewhere, expr]).map((c) => c.metadata.name),
    ).toEqual(['all', 'expr']);
  });

  it('as upstream: maxUnhealthy scaled down against the targets; a range bounds the unhealthy count', () => {
    expect(remediationDecision({ kind: 'none' }, 3, 3)).toEqual({
      allowed: true,
      remediationsAllowed: 0,
      max: 3,
    });
    expect(remediationDecision({ kind: 'maxUnhealthy', maxUnhealthy: '40%' }, 5, 2)).toEqual({
      allowed: true,
      remediationsAllowed: 0,
      max: 2,
    });
    expect(remediationDecision({ kind: 'maxUnhealthy', maxUnhealthy: 1 }, 5, 2).allowed).toBe(
      false,
    );
    expect(remediationDecision({ kind: 'range', min: 1, max: 2 }, 5, 1)).toEqual({
      allowed: true,
      remediationsAllowed: 1,
      max: 2,
    });
    expect(remediationDecision({ kind: 'range', min: 2, max: 3 }, 5, 1).allowed).toBe(false);
    expect(remediationDecision({ kind: 'maxUnhealthy', maxUnhealthy: 'x' }, 5, 0).allowed).toBe(
      false,
    );
  });
});
