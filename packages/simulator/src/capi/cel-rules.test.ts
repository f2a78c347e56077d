/**
 * Issue 23: every CEL rule (`x-kubernetes-validations`) of Cluster API v1.14.0's CRDs, as the
 * committed `generated/capi-schemas-v1.14.ts` carries them, is evaluated by the embedded API
 * server with upstream's message. The table below holds, per rule text, values its node accepts
 * and values it refuses (derived from the rule); the test walks the generated schemas, so a rule
 * added by a regenerated reference without a case here fails. Each case runs at the rule's own
 * node schema (types as the CRD declares them: items, lists of objects), and a few run end to end
 * through the embedded v1.14 cluster.
 */
import { validateCel, type JSONSchemaProps } from '@dcs/apiserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedCluster, type EmbeddedCluster } from '../embedded';
import { capiReferenceSchemasV114 } from '../generated/capi-schemas-v1.14';

interface Case {
  accept: unknown[];
  refuse: unknown[];
}

const arg = (name: string, value = 'v') => ({ name, value });
const GUID = '0FC63DAF-8483-4772-8E79-3D69D8477DE4';
const CONDITION_RULE =
  "!(self in ['Ready','Available','HealthCheckSucceeded','OwnerRemediated','ExternallyRemediated'])";

const CASES: Record<string, Case> = {
  'self.all(x, self.exists_one(y, x.name == y.name))': {
    accept: [[], [arg('a')], [arg('a', '1'), arg('b', '1')]],
    refuse: [
      [arg('a', '1'), arg('a', '2')],
      [arg('a'), arg('b'), arg('a')],
    ],
  },
  'self.all(x, self.exists_one(y, x == y))': {
    accept: [
      [{ selector: {} }],
      [{ selector: { matchLabels: { a: 'b' } } }, { selector: { matchLabels: { a: 'c' } } }],
    ],
    refuse: [
      [{ selector: {} }, { selector: {} }],
      [{ selector: { matchLabels: { a: 'b' } } }, { selector: { matchLabels: { a: 'b' } } }],
    ],
  },
  [CONDITION_RULE]: {
    accept: ['MemoryPressure', 'ready', 'NodeReady'],
    refuse: [
      'Ready',
      'Available',
      'HealthCheckSucceeded',
      'OwnerRemediated',
      'ExternallyRemediated',
    ],
  },
  "self.matches('^(Linux|LinuxSwap|LinuxRAID|LVM|Fat32|NTFS|LinuxExtended|[0-9A-Fa-f]{8}(-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})$')":
    {
      accept: ['Linux', 'LinuxSwap', 'LinuxRAID', 'LVM', 'Fat32', 'NTFS', 'LinuxExtended', GUID],
      refuse: ['ext4', 'linux', 'Linux ', GUID.slice(1), `${GUID}0`],
    },
  '[has(self.layout),has(self.diskLayout)].filter(x,x==true).size() == 1': {
    accept: [
      { device: '/dev/sda', layout: true },
      { device: '/dev/sda', diskLayout: [{ percentage: 100 }] },
    ],
    refuse: [
      { device: '/dev/sda' },
      { device: '/dev/sda', layout: true, diskLayout: [{ percentage: 100 }] },
    ],
  },
};

interface Found {
  where: string;
  schema: JSONSchemaProps;
  rule: { rule: string; message?: string };
}

function rulesOf(schema: JSONSchemaProps, where: string, out: Found[]): void {
  for (const rule of schema['x-kubernetes-validations'] ?? []) out.push({ where, schema, rule });
  for (const [k, sub] of Object.entries(schema.properties ?? {}))
    rulesOf(sub, `${where}.${k}`, out);
  if (schema.items) rulesOf(schema.items, `${where}[]`, out);
  if (typeof schema.additionalProperties === 'object')
    rulesOf(schema.additionalProperties, `${where}{}`, out);
}

const found: Found[] = [];
for (const s of capiReferenceSchemasV114) rulesOf(s.schema, `${s.kind} ${s.version} `, found);

describe('the CEL rules of Cluster API v1.14.0 (generated/capi-schemas-v1.14.ts)', () => {
  it('are all found: 37 rules, five distinct expressions, each with a case', () => {
    expect(found).toHaveLength(37);
    expect(
      found.filter((f) => !(f.rule.rule in CASES)).map((f) => `${f.where}: ${f.rule.rule}`),
    ).toEqual([]);
    expect(new Set(found.map((f) => f.rule.rule)).size).toBe(Object.keys(CASES).length);
  });

  it.each(found.map((f) => [f.where, f] as const))(
    '%s: accepts and refuses as upstream',
    (_, f) => {
      const c = CASES[f.rule.rule];
      expect(c).toBeDefined();
      if (!c) return;
      // The rule's node as the property `v` of an object: its errors are at `v`.
      const holder: JSONSchemaProps = { type: 'object', properties: { v: f.schema } };
      for (const value of c.accept) {
        expect(validateCel(holder, { v: value }).errors, JSON.stringify(value)).toEqual([]);
      }
      for (const value of c.refuse) {
        expect(validateCel(holder, { v: value }).errors, JSON.stringify(value)).toEqual([
          {
            type: 'FieldValueInvalid',
            field: 'v',
            body: `Invalid value: "${f.schema.type ?? ''}": ${f.rule.message ?? `failed rule: ${f.rule.rule}`}`,
          },
        ]);
      }
    },
  );
});

describe('the embedded v1.14 cluster enforces them on writes', () => {
  let cluster: EmbeddedCluster;
  beforeAll(async () => {
    cluster = await startEmbeddedCluster({ capiRelease: 'v1.14' });
  });
  afterAll(async () => {
    await cluster.close();
  });

  async function refusal(obj: Record<string, unknown>): Promise<unknown> {
    try {
      await cluster.server.client.create(obj as never);
    } catch (err) {
      return (err as { message?: string }).message;
    }
    return 'created';
  }

  const template = (name: string, apiVersion: string, spec: Record<string, unknown>) => ({
    apiVersion,
    kind: 'KubeadmConfigTemplate',
    metadata: { name, namespace: 'default' },
    spec: { template: { spec } },
  });

  it('v1beta2 KubeadmConfigTemplate: kubeletExtraArgs names must be unique', async () => {
    const join = (args: unknown[]) => ({
      joinConfiguration: { nodeRegistration: { kubeletExtraArgs: args } },
    });
    expect(
      await refusal(
        template(
          'kct-dup',
          'bootstrap.cluster.x-k8s.io/v1beta2',
          join([arg('max-pods', '1'), arg('max-pods', '2')]),
        ),
      ),
    ).toBe(
      'KubeadmConfigTemplate.bootstrap.cluster.x-k8s.io "kct-dup" is invalid: spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs: Invalid value: "array": kubeletExtraArgs name must be unique',
    );
    expect(
      await refusal(
        template(
          'kct-ok',
          'bootstrap.cluster.x-k8s.io/v1beta2',
          join([arg('max-pods', '1'), arg('v', '2')]),
        ),
      ),
    ).toBe('created');
  });

  it('v1beta1 (deprecated, served) KubeadmConfigTemplate: partitionType by its v1beta1 schema', async () => {
    const disk = (partitionType: string) => ({
      diskSetup: {
        partitions: [
          { device: '/dev/sdb', layout: true, diskLayout: [{ percentage: 100, partitionType }] },
        ],
      },
    });
    const msg = await refusal(
      template('kct-part', 'bootstrap.cluster.x-k8s.io/v1beta1', disk('ext4')),
    );
    expect(msg).toBe(
      'KubeadmConfigTemplate.bootstrap.cluster.x-k8s.io "kct-part" is invalid: spec.template.spec.diskSetup.partitions[0].diskLayout[0].partitionType: Invalid value: "string": partitionType must be one of Linux, LinuxSwap, LinuxRAID, LVM, Fat32, NTFS, LinuxExtended or a full GPT partition GUID',
    );
    expect(
      await refusal(template('kct-part', 'bootstrap.cluster.x-k8s.io/v1beta1', disk('LVM'))),
    ).toBe('created');
  });
});
