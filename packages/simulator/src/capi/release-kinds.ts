import type {
  AnyKindRegistration,
  KindRegistration,
  JSONSchemaProps,
  KindVersion,
  KubeObject,
} from '@dcs/apiserver';
import {
  CAPI_HUB_VERSION,
  convertCapiObject,
  isVersionedGroup,
  kindTable,
  type KindInfo,
} from '@dcs/domain';
import { capiReferenceSchemasV114 } from '../generated/capi-schemas-v1.14';
import type { CapiRelease } from './releases';

const v114 = new Map(capiReferenceSchemasV114.map((s) => [`${s.kind}/${s.version}`, s.schema]));

function schemaOf(kind: string, version: string): JSONSchemaProps {
  const schema = v114.get(`${kind}/${version}`);
  if (!schema) throw new Error(`no Cluster API v1.14.0 schema for ${kind} ${version}`);
  return structuredClone(schema);
}

/** A webhook's conversion, as the API server calls it: each object to `desiredAPIVersion`. */
const convert = (objects: KubeObject[], desiredAPIVersion: string): KubeObject[] =>
  objects.map((o) => convertCapiObject(o, desiredAPIVersion));

/**
 * The registration of a Cluster API kind as `release` serves it, given its single-version (v1.10)
 * registration `base`; other kinds, and every kind on v1.10, are `base` itself.
 */
export function registrationFor(base: KindRegistration, release: CapiRelease): AnyKindRegistration {
  if (release === 'v1.10' || !isVersionedGroup(base.group)) return base;
  const info = (kindTable as Record<string, KindInfo | undefined>)[base.kind];
  if (!info || base.version !== CAPI_HUB_VERSION) return base;
  const perVersion = (name: string, served: boolean, storage: boolean): KindVersion => ({
    name,
    served,
    storage,
    ...(name === CAPI_HUB_VERSION ? { deprecated: true } : {}),
    openAPIV3Schema: schemaOf(base.kind, name),
    ...(base.printerColumns ? { printerColumns: base.printerColumns } : {}),
    ...(base.subresources ? { subresources: base.subresources } : {}),
    ...(base.scale ? { scale: base.scale } : {}),
    ...(base.selectableFields ? { selectableFields: base.selectableFields } : {}),
  });
  return {
    group: base.group,
    kind: base.kind,
    plural: base.plural,
    ...(base.singular ? { singular: base.singular } : {}),
    scope: base.scope,
    ...(base.shortNames ? { shortNames: base.shortNames } : {}),
    ...(base.categories ? { categories: base.categories } : {}),
    versions: [
      perVersion('v1beta2', true, true),
      perVersion(CAPI_HUB_VERSION, release === 'v1.14', false),
    ],
    convert,
  };
}
