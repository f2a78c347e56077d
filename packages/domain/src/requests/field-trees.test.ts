import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatMessage } from '../i18n/messages';
import { kindTable } from '../kinds';
import { planUpgrade } from '../planners/upgrade';
import { DCSMachineTemplateSchema } from '../schemas/dcs';
import { aMachineDeployment, aMachineTemplate, aValidationContext } from '../testing';
import {
  DOMAIN_FIELD_TREES,
  PLAN_OWNED_FIELDS,
  requestIssues,
  requestSchemasFor,
  servedPartTree,
  servedRequestFieldTrees,
  servedSchemaPaths,
  UpgradeRequestSchema,
  unknownFieldPaths,
  type OpenApiV3DocumentLike,
} from '.';

/**
 * Issue 11 follow-up: the fields a request may write come from the schema the management cluster
 * serves (OpenAPI v3 of its group-version) when it can be read, else from the domain's shapes; a
 * field the plan sets is refused as such, whichever tree judges.
 */

type Json = Record<string, unknown>;
const INFRA = kindTable.DCSMachineTemplate;

/**
 * An OpenAPI v3 document as an API server publishes a CRD: the domain's template schema with
 * `extra` declared in its `spec.template.spec` (a real provider's richer CRD), every object
 * keeping unknown fields as the simulator's CRDs do.
 */
function servedDoc(extra: Json = {}, { keepUnknown = true } = {}): OpenApiV3DocumentLike {
  const schema = z.toJSONSchema(DCSMachineTemplateSchema, { io: 'input' }) as Json;
  const mark = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const n = node as Json;
    if (n.additionalProperties !== undefined && typeof n.additionalProperties === 'object') {
      delete n.additionalProperties;
      if (keepUnknown) n['x-kubernetes-preserve-unknown-fields'] = true;
    }
    for (const v of Object.values(n)) mark(v);
  };
  mark(schema);
  const props = (schema.properties as Json).spec as Json;
  const spec = (((props.properties as Json).template as Json).properties as Json).spec as Json;
  Object.assign(spec.properties as Json, extra);
  return {
    components: {
      schemas: {
        'io.x-k8s.cluster.infrastructure.v1beta1.DCSMachineTemplate': {
          ...schema,
          'x-kubernetes-group-version-kind': [
            { group: INFRA.group, version: INFRA.version, kind: 'DCSMachineTemplate' },
          ],
        },
      },
    },
  };
}

const spec = () => ({
  vmTemplateName: 'alauda-os-k8s-v1.33.4',
  vmConfig: {
    dcsMachineCpuSpec: { quantity: 4 },
    dcsMachineMemorySpec: { quantity: 8192 },
    dcsMachineDiskSpec: [
      { quantity: 0, datastoreClusterName: 'ds1', systemVolume: true },
      { quantity: 100, datastoreClusterName: 'ds1', path: '/var/lib/kubelet', format: 'xfs' },
      { quantity: 100, datastoreClusterName: 'ds1', path: '/var/lib/containerd', format: 'xfs' },
      { quantity: 50, datastoreClusterName: 'ds1', path: '/var/cpaas', format: 'xfs' },
    ],
  },
});
const upgrade = (s: Json) => ({
  operation: 'infrastructure',
  resourceVersion: '1',
  machineTemplate: { name: 'demo-md-0-template-r2', spec: s },
});

describe('request field trees from the served schemas (issue 11)', () => {
  it('reads the part from the served document; a field it declares beyond the domain is known, a typo is not', () => {
    const doc = servedDoc({ antiAffinityGroup: { type: 'string' } });
    const { trees, sources } = servedRequestFieldTrees({
      [`apis/${INFRA.group}/${INFRA.version}`]: doc,
    });
    expect(sources.machineTemplateSpec).toBe('served');
    expect(sources.kubeadmConfigSpec).toBe('domain');
    expect(trees.kubeadmConfigSpec).toBe(DOMAIN_FIELD_TREES.kubeadmConfigSpec);
    const value = { ...spec(), antiAffinityGroup: 'a', vmTemplateNmae: 'x' };
    expect(unknownFieldPaths(trees.machineTemplateSpec, value)).toEqual([['vmTemplateNmae']]);
    expect(unknownFieldPaths(DOMAIN_FIELD_TREES.machineTemplateSpec, value)).toEqual([
      ['antiAffinityGroup'],
      ['vmTemplateNmae'],
    ]);
  });

  it('a served object that keeps unknown fields and declares none is free-form; one that declares some is judged by them; $ref is followed', () => {
    const doc = servedDoc({
      labels: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      placement: { $ref: '#/components/schemas/Placement' },
    });
    const schemas = { ...doc.components?.schemas };
    schemas.Placement = { properties: { zone: {} } };
    const tree = servedPartTree({ components: { schemas } }, 'machineTemplateSpec');
    expect(
      unknownFieldPaths(tree ?? {}, {
        ...spec(),
        labels: { anything: { deep: 1 } },
        placement: { zone: 'a', zoen: 'b' },
        location: { type: 'folder', name: 'f', nmae: 'x' },
      }),
    ).toEqual([
      ['placement', 'zoen'],
      ['location', 'nmae'],
    ]);
  });

  it('a document that does not describe the kind leaves the part to the domain tree', () => {
    const { sources } = servedRequestFieldTrees({
      [`apis/${INFRA.group}/${INFRA.version}`]: { components: { schemas: {} } },
    });
    expect(Object.values(sources)).toEqual(['domain', 'domain', 'domain', 'domain']);
    expect(servedSchemaPaths()).toEqual([
      'apis/infrastructure.cluster.x-k8s.io/v1beta1',
      'apis/bootstrap.cluster.x-k8s.io/v1beta1',
      'apis/controlplane.cluster.x-k8s.io/v1beta1',
    ]);
  });

  it('O-UPGRADE-INFRA: judged by the served trees, the clone keeps the extra field and the plan writes it; a typo is refused at its path', () => {
    const { trees } = servedRequestFieldTrees({
      [`apis/${INFRA.group}/${INFRA.version}`]: servedDoc({
        antiAffinityGroup: { type: 'string' },
      }),
    });
    const schema = requestSchemasFor(trees).UpgradeRequestSchema;
    expect(requestSchemasFor(trees)).toBe(requestSchemasFor(trees));
    const body = upgrade({ ...spec(), antiAffinityGroup: 'rack-a' });
    // The domain's trees refuse it (what the BFF did before it read the served schema).
    expect(UpgradeRequestSchema.safeParse(body).success).toBe(false);
    const parsed = schema.parse(body);
    const md = aMachineDeployment({ name: 'demo-md-0' });
    const plan = planUpgrade(
      parsed,
      { machineDeployment: md, machineTemplate: aMachineTemplate({ name: 'demo-md-0-template' }) },
      aValidationContext(),
    );
    expect(plan.steps.map((s) => [s.verb, s.kind])).toContainEqual([
      'create',
      'DCSMachineTemplate',
    ]);
    expect(JSON.stringify(plan.steps)).toContain('"antiAffinityGroup":"rack-a"');

    const typo = schema.safeParse(upgrade({ ...spec(), antiAffinityGrop: 'x' }));
    const issues = typo.success ? [] : requestIssues(typo.error, body);
    expect(issues.map((i) => [i.rule, i.path, i.messageKey])).toEqual([
      ['R-REQUEST', 'machineTemplate.spec.antiAffinityGrop', 'request.unknownField'],
    ]);
  });

  it('__proto__ read from JSON in a template spec is inert under the served trees: not kept, no prototype set', () => {
    const { trees } = servedRequestFieldTrees({
      [`apis/${INFRA.group}/${INFRA.version}`]: servedDoc(),
    });
    const body = JSON.parse(
      JSON.stringify(upgrade(spec())).replace(
        '"vmTemplateName"',
        '"__proto__":{"polluted":true},"vmTemplateName"',
      ),
    ) as Json;
    const parsed = requestSchemasFor(trees).UpgradeRequestSchema.safeParse(body);
    if (parsed.success) {
      const data = parsed.data;
      if (!('machineTemplate' in data)) throw new Error('an infrastructure upgrade was parsed');
      const written = data.machineTemplate.spec as Json;
      expect(Object.hasOwn(written, '__proto__')).toBe(false);
      expect(Object.getPrototypeOf(written)).toBe(Object.prototype);
    } else {
      expect(requestIssues(parsed.error, body).map((i) => i.path)).toContain(
        'machineTemplate.spec.__proto__',
      );
    }
    expect(({} as Json).polluted).toBeUndefined();
  });
});

describe('fields the plan sets are refused as such (PLAN_OWNED_FIELDS)', () => {
  it.each([
    ['domain trees', DOMAIN_FIELD_TREES],
    [
      'served trees',
      servedRequestFieldTrees({ [`apis/${INFRA.group}/${INFRA.version}`]: servedDoc() }).trees,
    ],
  ])(
    'R-POOL-1: ipHostPoolRef and providerID in a template spec name the field and who sets it, in both languages (%s)',
    (_, trees) => {
      const body = upgrade({ ...spec(), ipHostPoolRef: { name: 'p' }, providerID: 'dcs://1' });
      const parsed = requestSchemasFor(trees).UpgradeRequestSchema.safeParse(body);
      expect(parsed.success).toBe(false);
      const issues = parsed.success ? [] : requestIssues(parsed.error, body);
      expect(issues.map((i) => [i.rule, i.path, i.messageKey])).toEqual([
        ['R-POOL-1', 'machineTemplate.spec.ipHostPoolRef', 'request.planOwned.ipHostPoolRef'],
        ['R-REQUEST', 'machineTemplate.spec.providerID', 'request.planOwned.providerID'],
      ]);
      const [pool, provider] = issues;
      expect(pool?.message).toContain('ipHostPoolRef is set by the plan');
      expect(provider?.message).toContain('providerID is set by the DCS provider');
      const zh = formatMessage('request.planOwned.ipHostPoolRef', pool?.params ?? {}, 'zh-CN');
      expect(zh).toContain('ipHostPoolRef 由计划设置');
      expect(
        formatMessage('request.planOwned.providerID', provider?.params ?? {}, 'zh-CN'),
      ).toContain('providerID 由 DCS provider');
    },
  );

  it('every plan-owned field is a field of its kind (the list names real fields, not typos)', () => {
    for (const f of PLAN_OWNED_FIELDS) {
      let tree = DOMAIN_FIELD_TREES[f.part];
      for (const seg of f.path) tree = tree.properties?.[seg] ?? { properties: {} };
      expect(tree, f.path.join('.')).not.toEqual({ properties: {} });
    }
  });
});
