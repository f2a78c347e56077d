/**
 * OpenAPI documents built from the registered schemas: v3 per group-version (/openapi/v3 and
 * /openapi/v3/{prefix}/{group}/{version}), which kubectl 1.2x–1.3x uses for `explain`, for
 * strategic-merge metadata in client-side `apply`, and to learn that the server validates
 * fields itself (the `fieldValidation` parameter on PATCH); and v2 (/openapi/v2) as JSON.
 */
import { createHash } from 'node:crypto';
import { clone } from './json';
import type { Registry, ResourceType } from './registry';
import type { JSONSchemaProps } from './types';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

function reverseGroup(group: string): string {
  return group.split('.').reverse().join('.');
}

/** The definition name, as kube-apiserver names them. */
export function definitionName(rt: ResourceType, kind = rt.kind): string {
  if (rt.builtin) {
    const short = rt.group === '' ? 'core' : (rt.group.split('.')[0] ?? rt.group);
    return `io.k8s.api.${short}.${rt.version}.${kind}`;
  }
  return `${reverseGroup(rt.group)}.${rt.version}.${kind}`;
}

const objectMeta: JSONSchemaProps = {
  type: 'object',
  description:
    'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
  properties: {
    name: { type: 'string', description: 'Name must be unique within a namespace.' },
    generateName: {
      type: 'string',
      description:
        'GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.',
    },
    namespace: {
      type: 'string',
      description: 'Namespace defines the space within which each name must be unique.',
    },
    uid: {
      type: 'string',
      description: 'UID is the unique in time and space value for this object.',
    },
    resourceVersion: {
      type: 'string',
      description: 'An opaque value that represents the internal version of this object.',
    },
    generation: {
      type: 'integer',
      format: 'int64',
      description: 'A sequence number representing a specific generation of the desired state.',
    },
    creationTimestamp: {
      type: 'string',
      format: 'date-time',
      description:
        'CreationTimestamp is a timestamp representing the server time when this object was created.',
    },
    deletionTimestamp: {
      type: 'string',
      format: 'date-time',
      description:
        'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted.',
    },
    deletionGracePeriodSeconds: {
      type: 'integer',
      format: 'int64',
      description: 'Number of seconds allowed for this object to gracefully terminate.',
    },
    labels: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description:
        'Map of string keys and values that can be used to organize and categorize objects.',
    },
    annotations: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Annotations is an unstructured key value map stored with a resource.',
    },
    ownerReferences: {
      type: 'array',
      description: 'List of objects depended by this object.',
      items: {
        type: 'object',
        required: ['apiVersion', 'kind', 'name', 'uid'],
        properties: {
          apiVersion: { type: 'string', description: 'API version of the referent.' },
          kind: { type: 'string', description: 'Kind of the referent.' },
          name: { type: 'string', description: 'Name of the referent.' },
          uid: { type: 'string', description: 'UID of the referent.' },
          controller: {
            type: 'boolean',
            description: 'If true, this reference points to the managing controller.',
          },
          blockOwnerDeletion: {
            type: 'boolean',
            description:
              'If true, the owner cannot be deleted from the key-value store until this reference is removed.',
          },
        },
      },
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'uid',
    },
    finalizers: {
      type: 'array',
      items: { type: 'string' },
      description: 'Must be empty before the object is deleted from the registry.',
      'x-kubernetes-patch-strategy': 'merge',
    },
    managedFields: {
      type: 'array',
      items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      description:
        'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
    },
  },
};

const listMeta: JSONSchemaProps = {
  type: 'object',
  description:
    'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
  properties: {
    resourceVersion: {
      type: 'string',
      description: "String that identifies the server's internal version of this object.",
    },
    continue: {
      type: 'string',
      description: 'continue may be set if the user set a limit on the number of items returned.',
    },
    remainingItemCount: {
      type: 'integer',
      format: 'int64',
      description:
        'The number of subsequent items in the list which are not included in this list response.',
    },
  },
};

type Ref = (name: string) => string;

function withRef(ref: string, description: string): Record<string, unknown> {
  return { allOf: [{ $ref: ref }], description, default: {} };
}

function kindSchema(rt: ResourceType, ref: Ref): Record<string, unknown> {
  const base: JSONSchemaProps = rt.schema
    ? clone(rt.schema)
    : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const props: Record<string, unknown> = { ...(base.properties ?? {}) };
  props.apiVersion = {
    type: 'string',
    description: 'APIVersion defines the versioned schema of this representation of an object.',
  };
  props.kind = {
    type: 'string',
    description: 'Kind is a string value representing the REST resource this object represents.',
  };
  props.metadata = withRef(
    ref(`${META}.ObjectMeta`),
    "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  );
  return {
    ...base,
    type: 'object',
    description: base.description ?? `${rt.kind} is the Schema for the ${rt.plural} API.`,
    properties: props,
    'x-kubernetes-group-version-kind': [{ group: rt.group, version: rt.version, kind: rt.kind }],
  };
}

function listSchema(rt: ResourceType, ref: Ref): Record<string, unknown> {
  return {
    type: 'object',
    description: `${rt.listKind} is a list of ${rt.kind}`,
    required: ['items'],
    properties: {
      apiVersion: {
        type: 'string',
        description: 'APIVersion defines the versioned schema of this representation of an object.',
      },
      kind: {
        type: 'string',
        description:
          'Kind is a string value representing the REST resource this object represents.',
      },
      items: {
        type: 'array',
        description: `List of ${rt.plural}.`,
        items: { $ref: ref(definitionName(rt)) },
      },
      metadata: withRef(ref(`${META}.ListMeta`), 'Standard list metadata.'),
    },
    'x-kubernetes-group-version-kind': [
      { group: rt.group, version: rt.version, kind: rt.listKind },
    ],
  };
}

const scaleSchema = (ref: Ref): Record<string, unknown> => ({
  type: 'object',
  description: 'Scale represents a scaling request for a resource.',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: withRef(ref(`${META}.ObjectMeta`), 'Standard object metadata.'),
    spec: {
      type: 'object',
      properties: {
        replicas: {
          type: 'integer',
          format: 'int32',
          description: 'replicas is the desired number of instances for the scaled object.',
        },
      },
    },
    status: {
      type: 'object',
      required: ['replicas'],
      properties: { replicas: { type: 'integer', format: 'int32' }, selector: { type: 'string' } },
    },
  },
  'x-kubernetes-group-version-kind': [{ group: 'autoscaling', version: 'v1', kind: 'Scale' }],
});

const queryParam = (name: string, description: string, type = 'string') => ({
  name,
  in: 'query',
  description,
  schema: { type },
  uniqueItems: true,
});
const DRY_RUN = queryParam(
  'dryRun',
  'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed',
);
const FIELD_MANAGER = queryParam(
  'fieldManager',
  'fieldManager is a name associated with the actor or entity that is making these changes.',
);
const FIELD_VALIDATION = queryParam(
  'fieldValidation',
  'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: Ignore, Warn, Strict.',
);
const FORCE = queryParam('force', 'Force is going to "force" Apply requests.', 'boolean');
const PRETTY = queryParam('pretty', "If 'true', then the output is pretty printed.");
const LIST_PARAMS = [
  'allowWatchBookmarks',
  'continue',
  'fieldSelector',
  'labelSelector',
  'limit',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'timeoutSeconds',
  'watch',
].map((n) =>
  queryParam(
    n,
    `${n} (see the Kubernetes API conventions)`,
    n === 'limit' || n === 'timeoutSeconds'
      ? 'integer'
      : n === 'watch' || n === 'allowWatchBookmarks' || n === 'sendInitialEvents'
        ? 'boolean'
        : 'string',
  ),
);
const pathParam = (name: string) => ({
  name,
  in: 'path',
  required: true,
  description: `${name} of the resource`,
  schema: { type: 'string' },
  uniqueItems: true,
});

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  action: string;
  kind: { group: string; version: string; kind: string };
  responseRef: string;
  params: unknown[];
  patchTypes?: string[];
  id: string;
}

function v3Operation(o: Operation, tag: string): Record<string, unknown> {
  const op: Record<string, unknown> = {
    tags: [tag],
    description: `${o.action} ${o.kind.kind}`,
    operationId: o.id,
    parameters: o.params,
    responses: {
      '200': {
        description: 'OK',
        content: {
          'application/json': { schema: { $ref: o.responseRef } },
          'application/yaml': { schema: { $ref: o.responseRef } },
        },
      },
      '401': { description: 'Unauthorized' },
    },
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': o.kind,
  };
  if (o.method === 'post' || o.method === 'put') {
    op.requestBody = { content: { '*/*': { schema: { $ref: o.responseRef } } }, required: true };
  }
  if (o.patchTypes) {
    op.requestBody = {
      content: Object.fromEntries(o.patchTypes.map((t) => [t, { schema: { type: 'object' } }])),
      required: true,
    };
  }
  return op;
}

function operationsFor(rt: ResourceType, ref: Ref): Map<string, Operation[]> {
  const prefix = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
  const nsPart = rt.scope === 'Namespaced' ? '/namespaces/{namespace}' : '';
  const nsParams = rt.scope === 'Namespaced' ? [pathParam('namespace')] : [];
  const gvk = { group: rt.group, version: rt.version, kind: rt.kind };
  const me = ref(definitionName(rt));
  const list = ref(definitionName(rt, rt.listKind));
  const status = ref(`${META}.Status`);
  const id = (verb: string, suffix = '') =>
    `${verb}${rt.group ? rt.group.split('.')[0] : 'Core'}${rt.version}${rt.scope === 'Namespaced' ? 'Namespaced' : ''}${rt.kind}${suffix}`;
  const patchTypes = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/apply-patch+yaml',
  ];
  if (rt.strategicMergePatch) patchTypes.push('application/strategic-merge-patch+json');
  const writeParams = [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION, PRETTY];
  const paths = new Map<string, Operation[]>();
  const coll = `${prefix}${nsPart}/${rt.plural}`;
  const item = `${coll}/{name}`;
  if (rt.virtual) {
    paths.set(coll, [
      {
        method: 'post',
        action: 'post',
        kind: gvk,
        responseRef: me,
        params: [...nsParams, ...writeParams],
        id: id('create'),
      },
    ]);
    return paths;
  }
  paths.set(coll, [
    {
      method: 'get',
      action: 'list',
      kind: gvk,
      responseRef: list,
      params: [...nsParams, ...LIST_PARAMS, PRETTY],
      id: id('list'),
    },
    {
      method: 'post',
      action: 'post',
      kind: gvk,
      responseRef: me,
      params: [...nsParams, ...writeParams],
      id: id('create'),
    },
    {
      method: 'delete',
      action: 'deletecollection',
      kind: gvk,
      responseRef: status,
      params: [...nsParams, DRY_RUN, ...LIST_PARAMS],
      id: id('deleteCollection'),
    },
  ]);
  const itemParams = [pathParam('name'), ...nsParams];
  paths.set(item, [
    {
      method: 'get',
      action: 'get',
      kind: gvk,
      responseRef: me,
      params: [...itemParams, PRETTY],
      id: id('read'),
    },
    {
      method: 'put',
      action: 'put',
      kind: gvk,
      responseRef: me,
      params: [...itemParams, ...writeParams],
      id: id('replace'),
    },
    {
      method: 'patch',
      action: 'patch',
      kind: gvk,
      responseRef: me,
      params: [...itemParams, ...writeParams, FORCE],
      patchTypes,
      id: id('patch'),
    },
    {
      method: 'delete',
      action: 'delete',
      kind: gvk,
      responseRef: status,
      params: [
        ...itemParams,
        DRY_RUN,
        queryParam('propagationPolicy', 'Whether and how garbage collection will be performed.'),
        queryParam(
          'gracePeriodSeconds',
          'The duration in seconds before the object should be deleted.',
          'integer',
        ),
      ],
      id: id('delete'),
    },
  ]);
  if (rt.statusSubresource) {
    paths.set(`${item}/status`, [
      {
        method: 'get',
        action: 'get',
        kind: gvk,
        responseRef: me,
        params: [...itemParams, PRETTY],
        id: id('read', 'Status'),
      },
      {
        method: 'put',
        action: 'put',
        kind: gvk,
        responseRef: me,
        params: [...itemParams, ...writeParams],
        id: id('replace', 'Status'),
      },
      {
        method: 'patch',
        action: 'patch',
        kind: gvk,
        responseRef: me,
        params: [...itemParams, ...writeParams, FORCE],
        patchTypes,
        id: id('patch', 'Status'),
      },
    ]);
  }
  if (rt.scale) {
    const scaleKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };
    const scaleRef = ref('io.k8s.api.autoscaling.v1.Scale');
    paths.set(`${item}/scale`, [
      {
        method: 'get',
        action: 'get',
        kind: scaleKind,
        responseRef: scaleRef,
        params: [...itemParams, PRETTY],
        id: id('read', 'Scale'),
      },
      {
        method: 'put',
        action: 'put',
        kind: scaleKind,
        responseRef: scaleRef,
        params: [...itemParams, ...writeParams],
        id: id('replace', 'Scale'),
      },
      {
        method: 'patch',
        action: 'patch',
        kind: scaleKind,
        responseRef: scaleRef,
        params: [...itemParams, ...writeParams, FORCE],
        patchTypes: [
          ...patchTypes.filter((t) => !t.includes('strategic')),
          'application/strategic-merge-patch+json',
        ],
        id: id('patch', 'Scale'),
      },
    ]);
  }
  if (rt.scope === 'Namespaced') {
    paths.set(`${prefix}/${rt.plural}`, [
      {
        method: 'get',
        action: 'list',
        kind: gvk,
        responseRef: list,
        params: [...LIST_PARAMS, PRETTY],
        id: id('list', 'ForAllNamespaces'),
      },
    ]);
  }
  return paths;
}

function commonSchemas(ref: Ref): Record<string, unknown> {
  return {
    [`${META}.ObjectMeta`]: objectMeta,
    [`${META}.ListMeta`]: listMeta,
    [`${META}.Status`]: {
      type: 'object',
      description: "Status is a return value for calls that don't return other objects.",
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: withRef(ref(`${META}.ListMeta`), 'Standard list metadata.'),
        status: { type: 'string' },
        message: { type: 'string' },
        reason: { type: 'string' },
        details: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        code: { type: 'integer', format: 'int32' },
      },
      'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Status' }],
    },
    'io.k8s.api.autoscaling.v1.Scale': scaleSchema(ref),
  };
}

/** The OpenAPI 3.0 document of one group-version. */
function v3Document(resources: readonly ResourceType[]): Record<string, unknown> {
  const ref: Ref = (n) => `#/components/schemas/${n}`;
  const schemas: Record<string, unknown> = commonSchemas(ref);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const rt of resources) {
    schemas[definitionName(rt)] = kindSchema(rt, ref);
    if (!rt.virtual) schemas[definitionName(rt, rt.listKind)] = listSchema(rt, ref);
    const tag = rt.group ? `${rt.group.split('.')[0] ?? ''}_${rt.version}` : `core_${rt.version}`;
    for (const [path, ops] of operationsFor(rt, ref)) {
      const entry: Record<string, unknown> = {};
      for (const o of ops) entry[o.method] = v3Operation(o, tag);
      paths[path] = entry;
    }
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    components: { schemas },
  };
}

function toV2Schema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toV2Schema);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string')
        out[k] = v.replace('#/components/schemas/', '#/definitions/');
      else if (k === 'nullable') continue;
      else out[k] = toV2Schema(v);
    }
    // Swagger 2.0 has no allOf-with-siblings idiom problem, but keeps the $ref form simple.
    return out;
  }
  return value;
}

export class OpenApi {
  private v3 = new Map<string, { body: string; hash: string }>();
  private v3Index: string | undefined;
  private v2: string | undefined;

  constructor(private readonly registry: Registry) {}

  /** Drops cached documents (after registering kinds at run time). */
  invalidate(): void {
    this.v3.clear();
    this.v3Index = undefined;
    this.v2 = undefined;
  }

  private gvKey(group: string, version: string): string {
    return group ? `apis/${group}/${version}` : `api/${version}`;
  }

  private build(): void {
    if (this.v3Index !== undefined) return;
    const paths: Record<string, unknown> = {};
    for (const gv of this.registry.groupVersions()) {
      const key = this.gvKey(gv.group, gv.version);
      const body = JSON.stringify(v3Document(gv.resources));
      const hash = createHash('sha512').update(body).digest('hex').slice(0, 128).toUpperCase();
      this.v3.set(key, { body, hash });
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
    }
    this.v3Index = JSON.stringify({ paths });
  }

  v3IndexBody(): string {
    this.build();
    return this.v3Index ?? '{"paths":{}}';
  }

  v3Body(path: string): string | undefined {
    this.build();
    return this.v3.get(path)?.body;
  }

  v2Body(): string {
    if (this.v2 !== undefined) return this.v2;
    const definitions: Record<string, unknown> = {};
    const paths: Record<string, unknown> = {};
    for (const gv of this.registry.groupVersions()) {
      const doc = v3Document(gv.resources) as {
        paths: Record<string, Record<string, Record<string, unknown>>>;
        components: { schemas: Record<string, unknown> };
      };
      for (const [name, schema] of Object.entries(doc.components.schemas))
        definitions[name] = toV2Schema(schema);
      for (const [path, ops] of Object.entries(doc.paths)) {
        const entry: Record<string, unknown> = {};
        for (const [method, op] of Object.entries(ops)) {
          const { requestBody: _body, responses: _responses, parameters, ...rest } = op;
          entry[method] = {
            ...rest,
            consumes: ['*/*'],
            produces: ['application/json', 'application/yaml'],
            parameters: (Array.isArray(parameters) ? parameters : []).map((p) => {
              const { schema, ...prm } = p as { schema?: { type?: string } } & Record<
                string,
                unknown
              >;
              return { ...prm, type: schema?.type ?? 'string' };
            }),
            responses: { '200': { description: 'OK' }, '401': { description: 'Unauthorized' } },
          };
        }
        paths[path] = entry;
      }
    }
    this.v2 = JSON.stringify({
      swagger: '2.0',
      info: { title: 'Kubernetes', version: 'v1.32.0' },
      paths,
      definitions,
    });
    return this.v2;
  }
}
