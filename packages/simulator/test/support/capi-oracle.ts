import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type AnySchemaObject, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import type { JSONSchemaProps } from '@dcs/apiserver';
import { findReferenceDir } from '../../src/capi/reference';

/**
 * The oracle of the contract and parity tests (issue 11, issue 13): what a real management cluster
 * with upstream's Cluster API CRDs accepts, decided by an independent validator (Ajv) on the
 * reference CRD files themselves, read at test time — never on this project's rendering of them —
 * plus what the API server and Cluster API's webhooks check beyond the schema and that the tests
 * rely on: ObjectMeta (names, labels, annotations), the fields Go decodes as `metav1.Duration`,
 * and int-or-percent rollout values. Everything here is written apart from `@dcs/domain` and
 * `@dcs/apiserver`, so that it can disagree with them.
 */

// --- where the reference is ----------------------------------------------------------------------

export { findReferenceDir };

/** One served version of one reference CRD, its schema as the file has it (descriptions too). */
export interface ServedVersion {
  group: string;
  version: string;
  kind: string;
  file: string;
  schema: JSONSchemaProps;
}

interface CrdFile {
  spec: {
    group: string;
    names: { kind: string };
    versions: { name: string; served: boolean; schema?: { openAPIV3Schema?: JSONSchemaProps } }[];
  };
}

/** Every served version of every CRD file of `dir` (the YAML, parsed now). */
export function readServedVersions(dir: string): ServedVersion[] {
  const out: ServedVersion[] = [];
  for (const file of readdirSync(dir)
    .filter((n) => n.endsWith('.yaml'))
    .sort()) {
    const crd = parse(readFileSync(join(dir, file), 'utf8')) as CrdFile;
    for (const v of crd.spec.versions) {
      if (!v.served) continue;
      const schema = v.schema?.openAPIV3Schema;
      if (!schema) throw new Error(`${file}: served version ${v.name} has no openAPIV3Schema`);
      out.push({ group: crd.spec.group, version: v.name, kind: crd.spec.names.kind, file, schema });
    }
  }
  return out;
}

// --- Ajv with Kubernetes' semantics -------------------------------------------------------------

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Ajv with Kubernetes' formats and list semantics; defaults applied as the API server does. */
export function kubeAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, useDefaults: true });
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => n >= -(2 ** 31) && n <= 2 ** 31 - 1,
  });
  ajv.addFormat('int64', { type: 'number', validate: () => true });
  ajv.addFormat('date-time', (s) => RFC3339.test(s) && !Number.isNaN(Date.parse(s)));
  ajv.addFormat('byte', (s) =>
    /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s),
  );
  /** `x-kubernetes-list-type: map`: no two items with the same values of the keys. */
  ajv.addKeyword({
    keyword: 'x-kubernetes-list-map-keys',
    type: 'array',
    schemaType: 'array',
    validate: (keys: string[], data: unknown[]) => {
      const seen = new Set<string>();
      for (const item of data) {
        const id = JSON.stringify(keys.map((k) => (item as Record<string, unknown>)[k] ?? null));
        if (seen.has(id)) return false;
        seen.add(id);
      }
      return true;
    },
  });
  return ajv;
}

/** A structural schema for Ajv: list-type set means unique items; everything else as written. */
export function forAjv(s: JSONSchemaProps): AnySchemaObject {
  const out: Record<string, unknown> = { ...s };
  if (s['x-kubernetes-list-type'] === 'set') out.uniqueItems = true;
  if (s.properties) {
    out.properties = Object.fromEntries(
      Object.entries(s.properties).map(([k, v]) => [k, forAjv(v)]),
    );
  }
  if (s.items) out.items = forAjv(s.items);
  if (typeof s.additionalProperties === 'object') {
    out.additionalProperties = forAjv(s.additionalProperties);
  }
  if (s.anyOf) out.anyOf = s.anyOf.map(forAjv);
  return out;
}

/** Ajv's errors, one line. */
export function errorsOf(ajv: Ajv, validate: ValidateFunction): string {
  return ajv.errorsText(validate.errors, { dataVar: '' });
}

// --- pruning ------------------------------------------------------------------------------------

/**
 * The paths of `value` that a structural schema does not declare: what the API server would drop
 * silently (pruning), so that a field a planner writes there never reaches the controllers.
 */
export function undeclaredPaths(schema: JSONSchemaProps, value: unknown, path = ''): string[] {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return [];
    return value.flatMap((v, i) => undeclaredPaths(items, v, `${path}[${String(i)}]`));
  }
  if (typeof value !== 'object' || value === null) return [];
  const out: string[] = [];
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  for (const [k, v] of Object.entries(value)) {
    // ObjectMeta is the API server's own (metadataProblems), never pruned by a CRD's schema.
    if (path === '' && k === 'metadata') continue;
    const declared = schema.properties?.[k];
    const extra = schema.additionalProperties;
    if (declared) out.push(...undeclaredPaths(declared, v, `${path}.${k}`));
    else if (typeof extra === 'object') out.push(...undeclaredPaths(extra, v, `${path}.${k}`));
    else if (!(
      preserve ||
      extra === true ||
      (embedded && ['apiVersion', 'kind', 'metadata'].includes(k))
    )) {
      out.push(`${path}.${k}`);
    }
  }
  return out;
}

/** The sub-schema at a path of `undeclaredPaths`' form (`.spec.pool[0].ip`), if declared. */
export function schemaAt(schema: JSONSchemaProps, path: string): JSONSchemaProps | undefined {
  let s: JSONSchemaProps | undefined = schema;
  for (const part of path.match(/\.[^.[]+|\[\d+\]/g) ?? []) {
    if (!s) return undefined;
    if (part.startsWith('[')) s = s.items;
    else {
      const k = part.slice(1);
      s =
        s.properties?.[k] ??
        (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    }
  }
  return s;
}

/** Every leaf path of a JSON value (`.a.b[0].c`), for "which fields does a planner write". */
export function leafPaths(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) {
    return value.length ? value.flatMap((v, i) => leafPaths(v, `${path}[${String(i)}]`)) : [path];
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.length ? entries.flatMap(([k, v]) => leafPaths(v, `${path}.${k}`)) : [path];
  }
  return [path];
}

// --- beyond the schema: ObjectMeta and Go types -------------------------------------------------

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const isLabel = (s: string) => s.length <= 63 && DNS1123_LABEL.test(s);
/** apimachinery's IsDNS1123Subdomain: ≤ 253 characters; its labels are not limited to 63. */
const isSubdomain = (s: string) => s.length <= 253 && DNS1123_SUBDOMAIN.test(s);
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** apimachinery's IsQualifiedName: `[prefix/]name`, prefix a DNS-1123 subdomain, name ≤ 63. */
function isQualifiedName(key: string): boolean {
  const parts = key.split('/');
  if (parts.length > 2) return false;
  const name = parts.at(-1) ?? '';
  const prefix = parts.length === 2 ? parts[0] : undefined;
  if (prefix !== undefined && !isSubdomain(prefix)) return false;
  return name.length > 0 && name.length <= 63 && QUALIFIED_NAME.test(name);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function labelProblems(labels: unknown, path: string): string[] {
  if (labels === undefined) return [];
  if (!isRecord(labels)) return [`${path}: not a map`];
  return Object.entries(labels).flatMap(([k, v]) => [
    ...(isQualifiedName(k) ? [] : [`${path}: key ${JSON.stringify(k)} is not a qualified name`]),
    ...(typeof v === 'string' && v.length <= 63 && LABEL_VALUE.test(v)
      ? []
      : [`${path}.${k}: ${JSON.stringify(v)} is not a valid label value`]),
  ]);
}

function annotationProblems(annotations: unknown, path: string): string[] {
  if (annotations === undefined) return [];
  if (!isRecord(annotations)) return [`${path}: not a map`];
  const out = Object.entries(annotations).flatMap(([k, v]) => [
    ...(isQualifiedName(k.toLowerCase())
      ? []
      : [`${path}: key ${JSON.stringify(k)} is not a qualified name`]),
    ...(typeof v === 'string' ? [] : [`${path}.${k}: not a string`]),
  ]);
  const size = Object.entries(annotations).reduce(
    (n, [k, v]) => n + k.length + (typeof v === 'string' ? v.length : 0),
    0,
  );
  if (size > 256 * 1024) out.push(`${path}: ${String(size)} bytes, more than 256 KiB`);
  return out;
}

/**
 * The API server's ObjectMeta validation of a custom resource (name a DNS-1123 subdomain,
 * namespace a label, labels and annotations well formed), and the same for the embedded
 * `metadata` of templates and for `matchLabels`, which Cluster API's webhooks check.
 */
export function metadataProblems(obj: Record<string, unknown>): string[] {
  const meta = isRecord(obj.metadata) ? obj.metadata : {};
  const out: string[] = [];
  const name = meta.name;
  if (typeof name !== 'string' || !isSubdomain(name)) {
    out.push(`metadata.name: ${JSON.stringify(name)} is not a DNS-1123 subdomain`);
  }
  if (typeof meta.namespace !== 'string' || !isLabel(meta.namespace)) {
    out.push(`metadata.namespace: ${JSON.stringify(meta.namespace)} is not a DNS-1123 label`);
  }
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        walk(x, `${path}[${String(i)}]`);
      });
      return;
    }
    if (!isRecord(v)) return;
    for (const [k, x] of Object.entries(v)) {
      const p = path ? `${path}.${k}` : k;
      if (k === 'labels' || k === 'matchLabels') out.push(...labelProblems(x, p));
      else if (k === 'annotations') out.push(...annotationProblems(x, p));
      else walk(x, p);
    }
  };
  walk(obj, '');
  return out;
}

/** Go's time.ParseDuration, as `metav1.Duration` decodes: `0`, or numbers each with a unit. */
const GO_DURATION = /^[-+]?(0|((\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/;

/**
 * Values the CRD schema leaves as any string (or int-or-string) but Cluster API decodes: the
 * timeouts and `ttl` are `metav1.Duration` (a value Go cannot parse makes the object unreadable
 * for the controllers), and `maxSurge` / `maxUnavailable` must be an integer ≥ 0 or `N%` (the
 * MachineDeployment webhook scales them with intstr.GetScaledValueFromIntOrPercent).
 */
export function goTypeProblems(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((v, i) => goTypeProblems(v, `${path}[${String(i)}]`));
  }
  if (!isRecord(value)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const p = `${path}.${k}`;
    if ((/timeout/i.test(k) || k === 'ttl') && typeof v === 'string' && !GO_DURATION.test(v)) {
      out.push(`${p}: ${JSON.stringify(v)} is not a Go duration`);
    } else if (k === 'maxSurge' || k === 'maxUnavailable') {
      const ok =
        (typeof v === 'number' && Number.isInteger(v) && v >= 0) ||
        (typeof v === 'string' && /^\d+%$/.test(v));
      if (!ok) out.push(`${p}: ${JSON.stringify(v)} is not an integer ≥ 0 or a percentage`);
    } else out.push(...goTypeProblems(v, p));
  }
  return out;
}

// --- the DCS kinds: DOMAIN.md §1 -----------------------------------------------------------------

const IPV4 = '^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$';
const IPV4_LIST =
  '^\\s*((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\s*(,\\s*((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\s*)*$';
/** "0"–"32", or a dotted netmask (kept as the older document wrote it). */
const MASK = `^([0-9]|[12][0-9]|3[0-2])$|${IPV4}`;
const nonEmpty = { type: 'string', minLength: 1 } as const;

/**
 * The DCS provider publishes no CRD; DOMAIN.md §1 (from the product documents) is what there is.
 * Its fields as a JSON Schema, so that what planners write for DCSIpHostnamePool and
 * DCSMachineTemplate is judged by the documents as well as by the CRDs the simulator serves
 * (which are generated from `domain`'s own zod schemas and so agree with the planners by
 * construction). No other field is allowed: a field the documents do not name would be ignored
 * by the provider. R-NIC-1 (dvSwitchName, portGroupName), R-DISK-1 (slots unique in an entry),
 * R-POOL-2 (ips unique in a pool) and R-TPL-3 are part of it.
 */
export const DOMAIN_DCS_SCHEMAS: Record<'DCSIpHostnamePool' | 'DCSMachineTemplate', object> = {
  DCSIpHostnamePool: {
    type: 'object',
    required: ['spec'],
    properties: {
      spec: {
        type: 'object',
        additionalProperties: false,
        properties: {
          pool: {
            type: 'array',
            'x-kubernetes-list-map-keys': ['ip'],
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['ip', 'mask', 'gateway'],
              properties: {
                ip: { type: 'string', pattern: IPV4 },
                mask: { type: 'string', pattern: MASK },
                gateway: { type: 'string', pattern: IPV4 },
                dns: { type: 'string', pattern: IPV4_LIST },
                hostname: { type: 'string', maxLength: 63, pattern: DNS1123_LABEL.source },
                machineName: nonEmpty,
                additionNic: {
                  type: 'array',
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['dvSwitchName', 'portGroupName'],
                    properties: {
                      ip: { type: 'string', pattern: IPV4 },
                      mask: { type: 'string', pattern: MASK },
                      gateway: { type: 'string', pattern: IPV4 },
                      dns: { type: 'string', pattern: IPV4_LIST },
                      dvSwitchName: nonEmpty,
                      portGroupName: nonEmpty,
                    },
                  },
                },
                persistentDisk: {
                  type: 'array',
                  'x-kubernetes-list-map-keys': ['slot'],
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['slot', 'quantityGB'],
                    properties: {
                      slot: { type: 'integer', minimum: 0 },
                      quantityGB: { type: 'integer', minimum: 1 },
                      datastoreClusterName: nonEmpty,
                      path: { type: 'string', pattern: '^/' },
                      format: nonEmpty,
                      options: { type: 'string' },
                      pciType: nonEmpty,
                      isThin: { type: 'boolean' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  DCSMachineTemplate: {
    type: 'object',
    required: ['spec'],
    properties: {
      spec: {
        type: 'object',
        required: ['template'],
        additionalProperties: false,
        properties: {
          template: {
            type: 'object',
            required: ['spec'],
            additionalProperties: false,
            properties: {
              metadata: { type: 'object' },
              spec: {
                type: 'object',
                additionalProperties: false,
                required: ['vmTemplateName', 'ipHostPoolRef'],
                properties: {
                  vmTemplateName: nonEmpty,
                  location: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['type', 'name'],
                    properties: { type: { enum: ['folder'] }, name: nonEmpty },
                  },
                  resource: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['type', 'name'],
                    properties: { type: { enum: ['cluster', 'host'] }, name: nonEmpty },
                  },
                  vmConfig: {
                    type: 'object',
                    additionalProperties: false,
                    properties: {
                      dvSwitchName: nonEmpty,
                      portGroupName: nonEmpty,
                      dcsMachineCpuSpec: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['quantity'],
                        properties: { quantity: { type: 'integer', minimum: 1 } },
                      },
                      dcsMachineMemorySpec: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['quantity'],
                        properties: { quantity: { type: 'integer', minimum: 1 } },
                      },
                      dcsMachineDiskSpec: {
                        type: 'array',
                        items: {
                          type: 'object',
                          additionalProperties: false,
                          required: ['quantity', 'datastoreClusterName'],
                          properties: {
                            quantity: { type: 'integer', minimum: 0 },
                            datastoreClusterName: nonEmpty,
                            systemVolume: { type: 'boolean' },
                            path: { type: 'string', pattern: '^/' },
                            format: nonEmpty,
                          },
                        },
                      },
                    },
                  },
                  ipHostPoolRef: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['name'],
                    properties: { name: nonEmpty },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};
