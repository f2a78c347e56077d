import { KUBEADM_CONFIG_SPEC_TREE } from '../generated/kubeadm-config-spec-fields';
import { kindTable } from '../kinds';
import { DCSMachineSpecSchema, IpPoolEntrySchema } from '../schemas/dcs';
import {
  fieldTreeOf,
  fieldTreeOfZod,
  type FieldTree,
  type JsonSchemaLike,
  type OwnedField,
} from './known-fields';

/**
 * What a request may write into each kind's part, as field trees (issue 11 follow-up). The truth
 * is the schema the management cluster serves: a real DCS provider's DCSMachineTemplate may have
 * more fields than the domain models, and a template cloned for an upgrade (O-UPGRADE-INFRA)
 * carries them. When the served schema can be read, the BFF judges by it
 * ({@link servedRequestFieldTrees}); otherwise, and in the browser, by the domain's own shapes
 * ({@link DOMAIN_FIELD_TREES}).
 */
export interface RequestFieldTrees {
  /** DCSMachineTemplate `spec.template.spec` (a DCSMachineSpec). */
  readonly machineTemplateSpec: FieldTree;
  /** One entry of DCSIpHostnamePool `spec.pool`. */
  readonly ipPoolEntry: FieldTree;
  /** KubeadmConfigTemplate `spec.template.spec` (a KubeadmConfigSpec). */
  readonly kubeadmConfigSpec: FieldTree;
  /** KubeadmControlPlane `spec.kubeadmConfigSpec` (the same Go type, served by another CRD). */
  readonly controlPlaneConfigSpec: FieldTree;
}
export type RequestPart = keyof RequestFieldTrees;

/** The domain's reading: its zod shapes for the DCS kinds, upstream's CRD for KubeadmConfigSpec. */
export const DOMAIN_FIELD_TREES: RequestFieldTrees = {
  machineTemplateSpec: fieldTreeOfZod(DCSMachineSpecSchema),
  ipPoolEntry: fieldTreeOfZod(IpPoolEntrySchema),
  kubeadmConfigSpec: KUBEADM_CONFIG_SPEC_TREE,
  controlPlaneConfigSpec: KUBEADM_CONFIG_SPEC_TREE,
};

/** Where each part sits in its kind's served schema. */
export const REQUEST_PART_SOURCES: Readonly<
  Record<RequestPart, { kind: keyof typeof kindTable; path: readonly string[] }>
> = {
  machineTemplateSpec: { kind: 'DCSMachineTemplate', path: ['spec', 'template', 'spec'] },
  ipPoolEntry: { kind: 'DCSIpHostnamePool', path: ['spec', 'pool', '[]'] },
  kubeadmConfigSpec: { kind: 'KubeadmConfigTemplate', path: ['spec', 'template', 'spec'] },
  controlPlaneConfigSpec: { kind: 'KubeadmControlPlane', path: ['spec', 'kubeadmConfigSpec'] },
};

/** The OpenAPI v3 document of one group-version, as `/openapi/v3/apis/{group}/{version}` serves it. */
export interface OpenApiV3DocumentLike {
  readonly components?: {
    readonly schemas?: Readonly<
      Record<
        string,
        JsonSchemaLike & {
          readonly 'x-kubernetes-group-version-kind'?: readonly {
            group?: string;
            version?: string;
            kind?: string;
          }[];
        }
      >
    >;
  };
}

/** The OpenAPI paths (`apis/{group}/{version}`) the BFF reads the served schemas from. */
export function servedSchemaPaths(): string[] {
  const paths = Object.values(REQUEST_PART_SOURCES).map(({ kind }) => {
    const info = kindTable[kind];
    return `apis/${info.group}/${info.version}`;
  });
  return [...new Set(paths)];
}

const REF_PREFIX = '#/components/schemas/';

/**
 * One part's tree from a served schema, or undefined when the document does not describe the
 * kind (or the part): then the domain's tree is the fallback. Judged as {@link fieldTreeOf}'s
 * `declared` reading says: a field the served schema does not declare is refused, whether the
 * server would prune it (Preview would show what Apply does not write) or keep it (a typo that
 * nothing reads).
 */
export function servedPartTree(
  doc: OpenApiV3DocumentLike,
  part: RequestPart,
): FieldTree | undefined {
  const { kind, path } = REQUEST_PART_SOURCES[part];
  const info = kindTable[kind];
  const schemas = doc.components?.schemas ?? {};
  const resolve = (ref: string): JsonSchemaLike | undefined => {
    if (!ref.startsWith(REF_PREFIX)) return undefined;
    const name = ref.slice(REF_PREFIX.length);
    return Object.hasOwn(schemas, name) ? schemas[name] : undefined;
  };
  let node: JsonSchemaLike | undefined = Object.values(schemas).find((s) =>
    (s['x-kubernetes-group-version-kind'] ?? []).some(
      (g) => g.group === info.group && g.version === info.version && g.kind === info.kind,
    ),
  );
  for (const seg of path) {
    while (node?.$ref !== undefined) node = resolve(node.$ref);
    if (!node) return undefined;
    if (seg === '[]') node = node.items;
    else
      node =
        node.properties && Object.hasOwn(node.properties, seg) ? node.properties[seg] : undefined;
  }
  return node && fieldTreeOf(node, { declared: true, resolve });
}

/** Which parts were judged by the served schema, and which by the domain's tree. */
export type FieldTreeSources = Record<RequestPart, 'served' | 'domain'>;

/**
 * The trees to judge requests by: each part from the served document of its group-version when
 * one describes it, else the domain's. `docs` maps `apis/{group}/{version}` to its document (a
 * document the BFF could not read is left out).
 */
export function servedRequestFieldTrees(
  docs: Readonly<Record<string, OpenApiV3DocumentLike | undefined>>,
): { trees: RequestFieldTrees; sources: FieldTreeSources } {
  const trees: Record<RequestPart, FieldTree> = { ...DOMAIN_FIELD_TREES };
  const sources = {} as FieldTreeSources;
  for (const part of Object.keys(REQUEST_PART_SOURCES) as RequestPart[]) {
    const info = kindTable[REQUEST_PART_SOURCES[part].kind];
    const doc = docs[`apis/${info.group}/${info.version}`];
    const served = doc ? servedPartTree(doc, part) : undefined;
    if (served) trees[part] = served;
    sources[part] = served ? 'served' : 'domain';
  }
  return { trees, sources };
}

/**
 * Fields of a written part that are fields of the kind, but that the plan (or the provider) sets
 * and a request must not: the one list, so that such a field is refused by what it is, not as
 * "not a field". A clone for an upgrade keeps the current template's `ipHostPoolRef`
 * (O-UPGRADE-INFRA, O-UPGRADE-K8S, O-UPGRADE-CP); a new pool's names the request's `ipPool`
 * (O-CREATE-POOL): the template's pool is where R-POOL-1 counts the pool's machines. `providerID`
 * is set per machine by the DCS provider on the DCSMachine it creates; a template carries none.
 * (The other parts, IP-pool entries and KubeadmConfigSpecs, are written as the request gives
 * them: the plan sets none of their fields.)
 */
export interface PlanOwnedField extends OwnedField {
  readonly part: RequestPart;
}

export const PLAN_OWNED_FIELDS: readonly PlanOwnedField[] = [
  {
    part: 'machineTemplateSpec',
    path: ['ipHostPoolRef'],
    rule: 'R-POOL-1',
    messageKey: 'request.planOwned.ipHostPoolRef',
  },
  {
    part: 'machineTemplateSpec',
    path: ['providerID'],
    rule: 'R-REQUEST',
    messageKey: 'request.planOwned.providerID',
  },
];

export const planOwnedFieldsOf = (part: RequestPart): readonly PlanOwnedField[] =>
  PLAN_OWNED_FIELDS.filter((f) => f.part === part);
