import { z } from 'zod';
import {
  INFRASTRUCTURE_GROUP,
  kindSchemas,
  kindTable,
  type KindInfo,
  type ParsedKind,
} from '@dcs/domain';
import { capiReferenceSchemas } from './generated/capi-schemas';
import { capiReferenceSchemasV114 } from './generated/capi-schemas-v1.14';

/**
 * CustomResourceDefinitions generated from `domain`'s zod schemas: the one place where the wire
 * schemas become OpenAPI. The embedded API server registers the same structural schemas, and
 * `pnpm sim:crds` prints the DCS ones for a real API server.
 */

type JsonSchema = Record<string, unknown>;

const isObject = (v: unknown): v is JsonSchema =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Turns zod's JSON Schema into a Kubernetes structural schema: loose objects keep unknown fields
 * (`x-kubernetes-preserve-unknown-fields`), int-or-string unions become
 * `x-kubernetes-int-or-string`, and JavaScript's safe-integer bounds are dropped.
 */
export function toStructural(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf;
  if (Array.isArray(anyOf)) {
    const types = anyOf.map((s) => (isObject(s) ? s.type : undefined)).sort();
    if (types.length === 2 && types[0] === 'integer' && types[1] === 'string') {
      return {
        'x-kubernetes-int-or-string': true,
        ...(schema.description ? { description: schema.description } : {}),
      };
    }
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === '$schema') continue;
    if (key === 'additionalProperties') {
      if (isObject(value) && Object.keys(value).length === 0) {
        out['x-kubernetes-preserve-unknown-fields'] = true;
      } else if (isObject(value)) {
        out.additionalProperties = toStructural(value);
      }
      continue;
    }
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, isObject(v) ? toStructural(v) : v]),
      );
      continue;
    }
    if (key === 'items' && isObject(value)) {
      out.items =
        Object.keys(value).length === 0
          ? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }
          : toStructural(value);
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** The openAPIV3Schema of one kind, as a CRD carries it. */
export function openApiSchemaOf(kind: ParsedKind): JsonSchema {
  const json = z.toJSONSchema(kindSchemas[kind], {
    target: 'openapi-3.0',
    io: 'input',
    unrepresentable: 'any',
  });
  const structural = toStructural(json);
  const properties = isObject(structural.properties) ? { ...structural.properties } : {};
  // A CRD may say nothing about metadata beyond its type, nor constrain apiVersion and kind.
  properties.metadata = { type: 'object' };
  properties.apiVersion = { type: 'string' };
  properties.kind = { type: 'string' };
  return {
    type: 'object',
    description: `${kind} (${kindTable[kind].group || 'core'}), as the DCS node-pool console reads and writes it.`,
    properties,
  };
}

const referenceByKind = new Map(capiReferenceSchemas.map((s) => [s.kind, s]));

/** The kinds whose schema is Cluster API's own (from the reference CRDs), not this project's. */
export const referenceKinds = capiReferenceSchemas.map((s) => s.kind);

/**
 * The schema the embedded cluster serves for a kind, so that it accepts and refuses what a real
 * management cluster does: Cluster API's own for the kinds the reference CRDs have (every bound,
 * enum, pattern, required field, format and default of upstream's v1beta1), this project's
 * rendering of the domain schemas for the DCS kinds. KubeadmConfig has no reference CRD; its spec
 * is the same Go type as KubeadmConfigTemplate's `spec.template.spec` (KubeadmConfigSpec), so it
 * is served with that, and the project's status.
 */
export function servedSchemaOf(kind: ParsedKind): JsonSchema {
  const ref = referenceByKind.get(kind);
  if (ref) {
    const info = kindTable[kind as keyof typeof kindTable];
    if (info.group !== ref.group || info.version !== ref.version) {
      throw new Error(
        `${kind}: the reference CRD serves ${ref.group}/${ref.version}, the domain ${info.group}/${info.version}`,
      );
    }
    return structuredClone(ref.schema) as JsonSchema;
  }
  // The v1.10 reference CRDs have no MachineHealthCheck: its v1beta1 schema is v1.14's v1beta1
  // (the same Go type, served deprecated there), so that v1.10 validates it as upstream does.
  const v1beta1 = capiReferenceSchemasV114.find(
    (s) => s.kind === kind && s.version === kindTable[kind as keyof typeof kindTable].version,
  );
  if (kind === 'MachineHealthCheck' && v1beta1) return structuredClone(v1beta1.schema);
  const own = openApiSchemaOf(kind);
  if (kind === 'KubeadmConfig') {
    const template = referenceByKind.get('KubeadmConfigTemplate')?.schema;
    const configSpec = template?.properties?.spec?.properties?.template?.properties?.spec;
    if (configSpec && isObject(own.properties)) {
      own.properties = { ...own.properties, spec: structuredClone(configSpec) };
    }
  }
  return own;
}

/** The kinds this project defines CRDs for: Cluster API's and the DCS provider's. */
export const crdKinds = (Object.keys(kindTable) as (keyof typeof kindTable)[]).filter(
  (k): k is ParsedKind & keyof typeof kindTable =>
    kindTable[k].group.endsWith('cluster.x-k8s.io') && k in kindSchemas,
);

export function crdOf(kind: ParsedKind & keyof typeof kindTable) {
  const info: KindInfo = kindTable[kind];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${info.plural}.${info.group}`,
      labels: {
        'cluster.x-k8s.io/provider':
          info.group === INFRASTRUCTURE_GROUP ? 'infrastructure-dcs' : 'cluster-api',
      },
    },
    spec: {
      group: info.group,
      names: {
        kind: info.kind,
        listKind: `${info.kind}List`,
        plural: info.plural,
        singular: info.singular,
        ...(info.shortNames.length ? { shortNames: [...info.shortNames] } : {}),
        ...(info.categories.length ? { categories: [...info.categories] } : {}),
      },
      scope: info.scope,
      versions: [
        {
          name: info.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: servedSchemaOf(kind) },
          subresources: {
            ...(info.subresources.status ? { status: {} } : {}),
            ...(info.subresources.scale
              ? {
                  scale: {
                    specReplicasPath: '.spec.replicas',
                    statusReplicasPath: '.status.replicas',
                    labelSelectorPath: '.status.selector',
                  },
                }
              : {}),
          },
          additionalPrinterColumns: info.printerColumns.map((c) => ({ ...c })),
        },
      ],
    },
  };
}

/** The DCS provider's CRDs: what a real management cluster with Cluster API needs besides. */
export function dcsCrds() {
  return crdKinds.filter((k) => kindTable[k].group === INFRASTRUCTURE_GROUP).map(crdOf);
}
