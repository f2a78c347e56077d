import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { JSONSchemaProps } from '@dcs/apiserver';
import { fieldTreeOf, type FieldTree } from '@dcs/domain';

/**
 * Cluster API's own CRD schemas, as the embedded cluster serves them. The reference CRDs
 * (upstream's generated files, Apache-2.0, `shared/reference/capi-crds/`) are reduced to what a
 * server validates with: every description is dropped, every constraint kept. The result is
 * committed as `src/generated/capi-schemas.ts` by `pnpm --filter @dcs/simulator gen:capi-schemas`;
 * a test checks that the committed module is what the reference files give.
 */

/** The repository's root (this file is `packages/simulator/src/capi/`). */
const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');

/**
 * A reference CRDs folder: `$<envVar>`, else `shared/reference/<folder>` beside the repository
 * (`/work/main` and CI's clean clone sit beside `/work/shared`) or beside one of its parent
 * folders (a git worktree in `/work/wt/NAME`). Undefined when there is none. By default v1.10's.
 */
export function findReferenceDir(
  folder = 'capi-crds',
  envVar = 'CAPI_REFERENCE_CRDS',
): string | undefined {
  const env = process.env[envVar];
  if (env) return existsSync(env) ? env : undefined;
  for (let dir = dirname(REPO_ROOT); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'reference', folder);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Where the reference CRDs are ({@link findReferenceDir}), for messages when they are absent. */
export function referenceDir(folder = 'capi-crds', envVar = 'CAPI_REFERENCE_CRDS'): string {
  return (
    findReferenceDir(folder, envVar) ??
    process.env[envVar] ??
    join(dirname(REPO_ROOT), 'shared', 'reference', folder)
  );
}

/** One reference kind: the served (storage) version's schema without descriptions. */
export interface ReferenceSchema {
  group: string;
  version: string;
  kind: string;
  schema: JSONSchemaProps;
}

/**
 * Every schema keyword the embedded validator (`@dcs/apiserver` validation.ts, and cel.ts for
 * the CEL rules of `x-kubernetes-validations`) implements. The generator refuses any other
 * keyword, so a newer reference with, say, `x-kubernetes-validations`' successor fails loudly
 * instead of being served without its rules.
 */
const VALIDATED_KEYWORDS = new Set([
  'type',
  'properties',
  'additionalProperties',
  'items',
  'required',
  'enum',
  'format',
  'default',
  'nullable',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'uniqueItems',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);

/** Keywords with no effect on what is accepted (documentation only). */
const DROPPED_KEYWORDS = new Set(['description', 'example', 'externalDocs', 'title']);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema without documentation; throws on a keyword the embedded validator cannot honour. */
export function stripSchema(node: unknown, path = ''): JSONSchemaProps {
  if (!isRecord(node)) throw new Error(`${path || '/'}: a schema must be an object`);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node).sort()) {
    const value = node[key];
    if (DROPPED_KEYWORDS.has(key)) continue;
    if (!VALIDATED_KEYWORDS.has(key)) {
      throw new Error(
        `${path || '/'}: schema keyword ${key} is not implemented by the embedded validator`,
      );
    }
    if (key === 'properties') {
      if (!isRecord(value)) throw new Error(`${path}/properties: must be an object`);
      // Property names are data, not keywords: a property called `description` stays.
      const props: Record<string, JSONSchemaProps> = {};
      for (const name of Object.keys(value).sort()) {
        props[name] = stripSchema(value[name], `${path}/properties/${name}`);
      }
      out.properties = props;
    } else if (key === 'items' || key === 'not') {
      out[key] = stripSchema(value, `${path}/${key}`);
    } else if (key === 'additionalProperties') {
      out[key] = typeof value === 'boolean' ? value : stripSchema(value, `${path}/${key}`);
    } else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') {
      if (!Array.isArray(value)) throw new Error(`${path}/${key}: must be a list`);
      out[key] = value.map((s, i) => stripSchema(s, `${path}/${key}/${String(i)}`));
    } else {
      out[key] = value;
    }
  }
  return out;
}

interface CrdFile {
  spec: {
    group: string;
    names: { kind: string };
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      schema: { openAPIV3Schema: unknown };
    }[];
  };
}

/** Reads the reference CRD files (YAML texts) into the served version's schema per kind. */
export function referenceSchemasFromTexts(texts: readonly string[]): ReferenceSchema[] {
  const out: ReferenceSchema[] = [];
  for (const text of texts) {
    const crd = parse(text) as CrdFile;
    const version = crd.spec.versions.find((v) => v.served && v.storage);
    if (!version) throw new Error(`${crd.spec.names.kind}: no served storage version`);
    out.push({
      group: crd.spec.group,
      version: version.name,
      kind: crd.spec.names.kind,
      schema: stripSchema(version.schema.openAPIV3Schema, crd.spec.names.kind),
    });
  }
  return out.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

/** The reference CRD files of `dir`, or undefined when the folder is absent (a CI machine). */
export function readReferenceTexts(dir = referenceDir()): string[] | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  return names
    .filter((n) => n.endsWith('.yaml'))
    .sort()
    .map((n) => readFileSync(join(dir, n), 'utf8'));
}

/** `Cluster API v1.10.10`, from the folder's SOURCE.txt (which names the upstream tag). */
export function referenceSource(dir = referenceDir()): string {
  try {
    const tag = /\btag (v[\w.-]+)/.exec(readFileSync(join(dir, 'SOURCE.txt'), 'utf8'))?.[1];
    return tag ? `Cluster API ${tag}` : 'Cluster API';
  } catch {
    return 'Cluster API';
  }
}

/** The committed module's text for these schemas (JSON inside TypeScript, stable key order). */
export function renderModule(schemas: readonly ReferenceSchema[], source: string): string {
  const header = [
    '// Generated by `pnpm --filter @dcs/simulator gen:capi-schemas` from the Cluster API CRDs',
    `// (${source}; upstream kubernetes-sigs/cluster-api, Apache-2.0): the served version's`,
    '// openAPIV3Schema of each kind, descriptions removed, every constraint kept. Do not edit.',
    "import type { ReferenceSchema } from '../capi/reference';",
    '',
    'export const capiReferenceSchemas: readonly ReferenceSchema[] = ',
  ].join('\n');
  return `${header}${JSON.stringify(schemas, null, 2)};\n`;
}

/**
 * The KubeadmConfigSpec of the reference (KubeadmConfigTemplate's `spec.template.spec`, the same
 * Go type as KubeadmControlPlane's `spec.kubeadmConfigSpec`) as the field tree a request's
 * bootstrap spec is judged by (issue 11: any other field would be pruned silently). Written to
 * `packages/domain/src/generated/kubeadm-config-spec-fields.ts` by `gen:capi-schemas`.
 */
export function kubeadmConfigSpecTree(schemas: readonly ReferenceSchema[]): FieldTree {
  const template = schemas.find((s) => s.kind === 'KubeadmConfigTemplate')?.schema;
  const spec = template?.properties?.spec?.properties?.template?.properties?.spec;
  if (!spec) throw new Error('the reference has no KubeadmConfigTemplate spec.template.spec');
  return fieldTreeOf(spec);
}

/** The domain module holding {@link kubeadmConfigSpecTree}. */
export function renderKubeadmFieldsModule(
  schemas: readonly ReferenceSchema[],
  source: string,
): string {
  const header = [
    '// Generated by `pnpm --filter @dcs/simulator gen:capi-schemas` from the Cluster API CRDs',
    `// (${source}; upstream kubernetes-sigs/cluster-api, Apache-2.0): the fields of`,
    '// KubeadmConfigSpec at every level, as its structural schema keeps them. Do not edit.',
    "import type { FieldTree } from '../requests/known-fields';",
    '',
    'export const KUBEADM_CONFIG_SPEC_TREE: FieldTree = ',
  ].join('\n');
  return `${header}${JSON.stringify(kubeadmConfigSpecTree(schemas), null, 1)};\n`;
}
