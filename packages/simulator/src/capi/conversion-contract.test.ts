import { describe, expect, it } from 'vitest';
import { validateCel, type JSONSchemaProps } from '@dcs/apiserver';
import {
  applyStep,
  capiConvertible,
  CONVERSION_DATA_ANNOTATION,
  convertCapiObject,
  CreatePoolRequestSchema,
  EditStrategyRequestSchema,
  planCreatePool,
  planEditStrategy,
  planRestart,
  planScale,
  type KubeObject,
  type Plan,
} from '@dcs/domain';
import {
  aBootstrapTemplate,
  aCluster,
  aCreatePoolRequest,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  aValidationContext,
} from '@dcs/domain/testing';
import { capiReferenceSchemasV114 } from '../generated/capi-schemas-v1.14';
import { errorsOf, forAjv, kubeAjv, undeclaredPaths } from '../../test/support/capi-oracle';
import {
  readReferenceTextsV114,
  referenceDirV114,
  referenceSourceV114,
  renderFieldTreesModuleV114,
  renderSchemasModuleV114,
  versionedSchemasFromTexts,
} from './reference-v1-14';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Issue 23's contract check of the conversion (`@dcs/domain` `convertCapiObject`): every object
 * the console holds (its hub, v1beta1) and every object a planner writes, converted to v1beta2
 * and back, is one Cluster API v1.14.0's CRD of that version accepts: Ajv on the version's
 * openAPIV3Schema (`src/generated/capi-schemas-v1.14.ts`, generated from the reference CRDs and
 * committed, so that CI without `shared/reference` checks it too), and nothing in it the schema
 * does not declare (pruning would drop it without a word), and every CEL rule
 * (`x-kubernetes-validations`) the schema carries, with the embedded API server's evaluator
 * (`validateCel`, @bufbuild/cel: Ajv has no CEL; each rule of the v1.14 CRDs is held to upstream's
 * message by `cel-rules.test.ts`).
 */

const ajv = kubeAjv();
const byKey = new Map<string, (typeof capiReferenceSchemasV114)[number]>(
  capiReferenceSchemasV114.map((s) => [`${s.group}/${s.version}/${s.kind}`, s] as const),
);
const compiled = new Map(
  capiReferenceSchemasV114.map(
    (s) => [s, ajv.compile(forAjv(s.schema as JSONSchemaProps))] as const,
  ),
);

function problemsOf(obj: KubeObject): string[] {
  const ref = byKey.get(`${obj.apiVersion}/${obj.kind}`);
  const validate = ref && compiled.get(ref);
  if (!ref || !validate) return [`${obj.apiVersion} ${obj.kind}: no v1.14 reference schema`];
  const out: string[] = [];
  if (!validate(structuredClone(obj)))
    out.push(`${ref.kind} ${ref.version}: ${errorsOf(ajv, validate)}`);
  out.push(
    ...undeclaredPaths(ref.schema as JSONSchemaProps, obj).map(
      (p) => `${ref.kind} ${ref.version} prunes ${p}`,
    ),
  );
  const cel = validateCel(ref.schema, structuredClone(obj));
  out.push(...cel.errors.map((e) => `${ref.kind} ${ref.version} CEL: ${JSON.stringify(e)}`));
  return out;
}

const to = (o: KubeObject, version: string): KubeObject =>
  convertCapiObject(o, `${o.apiVersion.split('/')[0] ?? ''}/${version}`);

/** The object in both versions, each judged by its version's schema. */
function judgeBoth(label: string, hub: KubeObject): void {
  const v2 = to(hub, 'v1beta2');
  const back = to(v2, 'v1beta1');
  const problems = [
    ...problemsOf(v2).map((p) => `v1beta2: ${p}`),
    ...problemsOf(back).map((p) => `v1beta1 (round trip): ${p}`),
  ];
  expect(problems, `${label}\n${JSON.stringify(v2)}`).toEqual([]);
  expect(back.metadata.annotations?.[CONVERSION_DATA_ANNOTATION] !== undefined).toBe(
    hub.kind !== 'MachineDrainRule',
  );
}

const ctx = aValidationContext();

/** The CAPI objects a plan's steps (and undos) leave, played over `base`. */
function writtenBy(plan: Plan, base: readonly KubeObject[]): KubeObject[] {
  const state = new Map(base.map((o) => [`${o.kind}/${o.metadata.name ?? ''}`, o]));
  const out: KubeObject[] = [];
  for (const step of plan.steps) {
    const k = `${step.kind}/${step.name}`;
    const after = applyStep(state.get(k), step);
    if (!after) continue;
    state.set(k, after);
    if (capiConvertible(after.apiVersion, after.kind)) out.push(after);
    if (step.undo?.verb === 'patch') {
      const undone = applyStep(after, step.undo);
      if (undone && capiConvertible(undone.apiVersion, undone.kind)) out.push(undone);
    }
  }
  return out;
}

describe('converted objects validate against the v1.14.0 CRDs of their version', () => {
  it('the check refuses an unconverted object: v1beta1 fields under a v1beta2 apiVersion', () => {
    const md = aMachineDeployment();
    const problems = problemsOf({ ...md, apiVersion: 'cluster.x-k8s.io/v1beta2' });
    expect(problems).toContain('MachineDeployment v1beta2 prunes .spec.strategy');
    expect(problems.some((p) => p.includes('must have required property'))).toBe(true);
  });

  it("the check evaluates the schema's CEL rules: v1beta2 kubeletExtraArgs with a name twice", () => {
    const kct = to(aBootstrapTemplate(), 'v1beta2') as KubeObject & {
      spec: {
        template: {
          spec: {
            joinConfiguration?: {
              nodeRegistration?: { kubeletExtraArgs?: { name: string; value: string }[] };
            };
          };
        };
      };
    };
    const registration = kct.spec.template.spec.joinConfiguration?.nodeRegistration;
    if (!registration) throw new Error('the builder has a join configuration');
    registration.kubeletExtraArgs = [
      { name: 'node-ip', value: 'NODE_IP' },
      { name: 'node-ip', value: '10.0.0.1' },
    ];
    const problems = problemsOf(kct);
    expect(
      problems.some((p) => p.includes('CEL') && p.includes('kubeletExtraArgs name must be unique')),
      problems.join('\n'),
    ).toBe(true);
  });

  it.each([
    ['Cluster', aCluster()],
    ['MachineDeployment', aMachineDeployment()],
    ['MachineSet', aMachineSet()],
    ['Machine', aMachine()],
    ['KubeadmControlPlane', aKubeadmControlPlane()],
    ['KubeadmConfigTemplate', aBootstrapTemplate()],
  ] as [string, KubeObject][])('%s of the test builders', (label, obj) => {
    expect(problemsOf(obj).map((p) => `hub: ${p}`)).toEqual([]);
    judgeBoth(label, obj);
  });

  it('O-CREATE-POOL: the bootstrap template and MachineDeployment it creates', () => {
    const plan = planCreatePool(CreatePoolRequestSchema.parse(aCreatePoolRequest()), {}, ctx);
    const written = writtenBy(plan, []);
    expect(written.map((o) => o.kind)).toEqual(['KubeadmConfigTemplate', 'MachineDeployment']);
    for (const o of written) judgeBoth(`create pool ${o.kind}`, o);
  });

  it('O-EDIT-STRATEGY and O-SCALE-UP: the MachineDeployment they patch, and its undo', () => {
    const md = aMachineDeployment();
    const rv = md.metadata.resourceVersion ?? '';
    const edit = planEditStrategy(
      EditStrategyRequestSchema.parse({
        resourceVersion: rv,
        maxUnavailable: 2,
        nodeDrainTimeout: '1m30.5s',
        nodeVolumeDetachTimeout: '10m',
      }),
      { machineDeployment: md },
      ctx,
    );
    const scale = planScale(
      { replicas: 5, resourceVersion: rv },
      { machineDeployment: md, machines: [] },
      ctx,
    );
    const written = [...writtenBy(edit, [md]), ...writtenBy(scale, [md])];
    expect(written.length).toBeGreaterThanOrEqual(2);
    for (const o of written) judgeBoth(`patched ${o.kind}`, o);
  });

  it('O-RESTART: the MachineDeployment and KubeadmControlPlane it patches (rolloutAfter → rollout.after), and the undo', () => {
    const now = new Date('2026-03-01T10:00:00Z');
    const md = aMachineDeployment();
    const kcp = aKubeadmControlPlane();
    const one = (o: typeof md | typeof kcp, replicas: number) =>
      planRestart(
        { resourceVersion: o.metadata.resourceVersion ?? '', at: '2026-03-02T00:00:00Z' },
        {
          target: o,
          machines: Array.from({ length: replicas }, (_, n) =>
            aMachine({
              metadata: { name: `m${String(n)}`, creationTimestamp: '2026-01-01T00:00:00Z' },
            }),
          ),
        },
        ctx,
        now,
      );
    const written = [...writtenBy(one(md, 3), [md]), ...writtenBy(one(kcp, 3), [kcp])];
    expect(written.map((o) => o.kind)).toEqual(
      expect.arrayContaining(['MachineDeployment', 'KubeadmControlPlane']),
    );
    for (const o of written) judgeBoth(`restarted ${o.kind}`, o);
  });
});

describe('the committed v1.14 modules are what the reference CRDs give', () => {
  const dir = referenceDirV114();
  const texts = readReferenceTextsV114(dir);
  it.skipIf(!texts)('capi-schemas-v1.14.ts and domain capi-fields-v1.14.ts', () => {
    if (!texts) return;
    const schemas = versionedSchemasFromTexts(texts);
    const source = referenceSourceV114(dir);
    const here = import.meta.dirname;
    expect(readFileSync(join(here, '..', 'generated', 'capi-schemas-v1.14.ts'), 'utf8')).toBe(
      renderSchemasModuleV114(schemas, source),
    );
    expect(
      readFileSync(
        join(here, '..', '..', '..', 'domain', 'src', 'generated', 'capi-fields-v1.14.ts'),
        'utf8',
      ),
    ).toBe(renderFieldTreesModuleV114(schemas, source));
  });
  if (!texts) {
    process.stdout.write(
      `capi v1.14 reference: ${dir} is absent: checking the committed modules alone\n`,
    );
  }
});
