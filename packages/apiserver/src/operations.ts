/**
 * The write path every write takes, from HTTP or from the code that started the server: identity
 * and system metadata, pruning and defaults, spec/status separation, mutating admission,
 * validation, validating admission, preconditions, then one synchronous commit to the store.
 * `dryRun` runs all of it and stops before the commit.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Admission, AdmissionConverter } from './admission';
import { timestampNow } from './clock';
import { blocksCel, CEL_NOT_CHECKED, celValidator, validateCel } from './cel';
import {
  clone,
  deepEqual,
  getPath,
  isObject,
  put,
  removeKey,
  setPath,
  type JsonObject,
} from './json';
import { checkObjectBounds } from './limits';
import { metadataDecodeError, normalizeNulls } from './metadata-validation';
import { managedFieldsSent, serverSideApply, sortManagedFields, trackUpdate } from './patch/apply';
import { applyInVersions, trackUpdateInVersions, type VersionView } from './versioned-fields';
import { applyJsonPatch, parseJsonPatch } from './patch/json-patch';
import { mergePatch } from './patch/merge-patch';
import { strategicMergePatch } from './patch/strategic';
import { convertOne, type Registry, type ResourceType } from './registry';
import { formatLabelSelector } from './selectors';
import {
  ApiError,
  alreadyExists,
  badRequest,
  conflict,
  fieldError,
  invalid,
  notFound,
  unsupportedMediaType,
  type FieldError,
} from './status';
import type { Store } from './store/store';
import { Stored } from './store/stored';
import type {
  AdmissionOperation,
  AdmissionRequest,
  JSONSchemaProps,
  KubeObject,
  UserInfo,
} from './types';
import {
  pruneAndDefault,
  validateMeta,
  validateName,
  validateSchema,
  type NameRule,
} from './validation';

/** How much of a patched object a 422 for its undecodable metadata repeats. */
const PATCHED_VALUE_SHOWN = 4096;

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface WriteContext {
  user: UserInfo;
  dryRun: boolean;
  fieldManager?: string;
  fieldValidation: FieldValidation;
  /** Warnings collected for the `Warning` response headers. */
  warnings: string[];
}

export type Subresource = '' | 'status' | 'scale';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_CONTENT_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+cbor': 'apply',
};

export interface DeleteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
}

export interface DeleteResult {
  /** True when the object is gone; false when finalizers hold it (deletionTimestamp set). */
  deleted: boolean;
  obj: KubeObject;
}

/**
 * What a write answers with: the version it stored, whose serialized JSON is sent as it is (no
 * parse and re-serialize per response), or a plain object where nothing was stored (dry run, the
 * Scale of the scale subresource).
 */
export class WriteResult {
  private constructor(private readonly value: Stored | KubeObject) {}

  static of(stored: Stored): WriteResult {
    return new WriteResult(stored);
  }

  static plain(obj: KubeObject): WriteResult {
    return new WriteResult(obj);
  }

  get stored(): Stored | undefined {
    return this.value instanceof Stored ? this.value : undefined;
  }

  json(): string {
    return this.value instanceof Stored ? this.value.json : JSON.stringify(this.value);
  }

  /** An object the caller may keep or change (a stored version is parsed afresh). */
  object(): KubeObject {
    return this.value instanceof Stored ? this.value.object() : this.value;
  }
}

/** Waits until committed writes are durable (the persistence log's group commit). */
export type Durability = () => Promise<void>;

const GENERATE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

function generateSuffix(): string {
  const bytes = randomBytes(5);
  let out = '';
  for (const b of bytes) out += GENERATE_CHARS[b % GENERATE_CHARS.length] ?? 'x';
  return out;
}

const timestamp = timestampNow;

/**
 * A copy of `old` with `status` in place of its status (absent when undefined), in the same key
 * order a copy of `old` with its status replaced has. What a status write starts from: the old
 * status is not copied only to be thrown away.
 */
function withStatus(old: KubeObject, status: unknown): KubeObject {
  const out: JsonObject = {};
  for (const k of Object.keys(old)) {
    if (k !== 'status') put(out, k, clone(old[k]));
    else if (status !== undefined) out.status = status;
  }
  if (status !== undefined && !Object.hasOwn(out, 'status')) out.status = status;
  return out as KubeObject;
}

function nameRule(rt: ResourceType): NameRule {
  if (rt.kind === 'Namespace') return 'label';
  if (rt.group === 'rbac.authorization.k8s.io') return 'path';
  return 'subdomain';
}

function gr(rt: ResourceType): { group: string; resource: string } {
  return { group: rt.group, resource: rt.plural };
}

/** The parts of an object whose change bumps metadata.generation. */
function specOf(rt: ResourceType, obj: KubeObject): JsonObject {
  const out: JsonObject = { ...obj };
  removeKey(out, 'metadata');
  removeKey(out, 'apiVersion');
  removeKey(out, 'kind');
  if (rt.statusSubresource) removeKey(out, 'status');
  return out;
}

export class Operations {
  constructor(
    private readonly registry: Registry,
    private readonly store: Store,
    private readonly admission: Admission,
    private readonly durable: Durability,
  ) {}

  /** The schema of a resource, or of autoscaling/v1 Scale for the scale subresource. */
  schemaOf(rt: ResourceType): JSONSchemaProps | undefined {
    return rt.schema;
  }

  private asObject(rt: ResourceType, body: unknown): KubeObject {
    checkObjectBounds(body);
    if (!isObject(body))
      throw badRequest(
        `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: the body must be a JSON object`,
      );
    // A body whose metadata does not decode into an ObjectMeta is a 400, as the real decoder's.
    const wrong = metadataDecodeError(body.metadata, rt.builtin ? rt.kind : undefined);
    if (wrong)
      throw badRequest(
        `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: ${wrong}`,
      );
    const obj = body as KubeObject;
    obj.metadata = isObject(body.metadata) ? body.metadata : {};
    normalizeNulls(obj.metadata);
    return obj;
  }

  /**
   * A patch's result whose metadata does not decode: 422 on the field `patch`, its value the
   * patched object, as kube-apiserver's patcher answers when the patched JSON does not decode.
   */
  private checkPatchedMetadata(rt: ResourceType, patched: JsonObject): void {
    const wrong = metadataDecodeError(patched.metadata, rt.builtin ? rt.kind : undefined);
    if (!wrong) return;
    let shown = JSON.stringify(patched);
    // The real answer repeats the whole patched object (up to the 1.5 MiB object limit, twice:
    // message and cause); a prefix says as much.
    if (shown.length > PATCHED_VALUE_SHOWN) shown = `${shown.slice(0, PATCHED_VALUE_SHOWN)}...`;
    throw invalid({ group: '', kind: '' }, '', [fieldError.invalid('patch', shown, wrong)]);
  }

  private checkTypeMeta(rt: ResourceType, obj: KubeObject): void {
    // From the wire either may be missing or not a string, whatever the type says.
    const apiVersion: unknown = obj.apiVersion;
    const kind: unknown = obj.kind;
    if (apiVersion !== undefined && apiVersion !== rt.apiVersion) {
      throw badRequest(
        `the API version in the data (${JSON.stringify(apiVersion)}) does not match the expected API version (${rt.apiVersion})`,
      );
    }
    if (kind !== undefined && kind !== rt.kind) {
      throw badRequest(
        `the kind in the data (${JSON.stringify(kind)}) does not match the expected kind (${rt.kind})`,
      );
    }
    obj.apiVersion = rt.apiVersion;
    obj.kind = rt.kind;
  }

  /** Prunes unknown fields and applies defaults; Strict rejects unknown fields, Warn reports them. */
  private decode(rt: ResourceType, obj: KubeObject, ctx: WriteContext, defaults = true): void {
    const unknown = pruneAndDefault(obj, rt.schema, defaults);
    if (unknown.length === 0 || ctx.fieldValidation === 'Ignore') return;
    const list = unknown.map((f) => `unknown field "${f}"`);
    if (ctx.fieldValidation === 'Strict') {
      throw badRequest(
        `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: strict decoding error: ${list.join(', ')}`,
      );
    }
    ctx.warnings.push(...list);
  }

  private checkNamespace(rt: ResourceType, namespace: string | undefined, obj: KubeObject): void {
    if (rt.scope === 'Cluster') {
      removeKey(obj.metadata, 'namespace');
      return;
    }
    const ns = namespace ?? obj.metadata.namespace;
    if (!ns)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    if (
      obj.metadata.namespace !== undefined &&
      obj.metadata.namespace !== '' &&
      obj.metadata.namespace !== ns
    ) {
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    obj.metadata.namespace = ns;
  }

  /**
   * A patch may not move an object to another namespace: 400 as the real patcher's `checkName`
   * answers (an empty namespace is the URL's). A cluster-scoped object has none
   * (`rest.BeforeUpdate` clears it).
   */
  private checkPatchedNamespace(rt: ResourceType, ns: string | undefined, obj: KubeObject): void {
    if (rt.scope === 'Cluster' || ns === undefined) {
      removeKey(obj.metadata, 'namespace');
      return;
    }
    const patched = obj.metadata.namespace;
    if (patched !== undefined && patched !== '' && patched !== ns) {
      throw badRequest(
        `the namespace of the object (${patched}) does not match the namespace on the URL (${ns})`,
      );
    }
    obj.metadata.namespace = ns;
  }

  /** NamespaceLifecycle: the namespace must exist and not be terminating. */
  private checkNamespaceLive(rt: ResourceType, obj: KubeObject): void {
    if (rt.scope === 'Cluster') return;
    const nsType = this.registry.lookup('', 'v1', 'namespaces');
    if (!nsType) return;
    const ns = obj.metadata.namespace ?? '';
    const stored = this.store.get(nsType, undefined, ns);
    if (!stored) throw notFound({ group: '', resource: 'namespaces' }, ns);
    if (stored.deleting) {
      const why = `unable to create new content in namespace ${ns} because it is being terminated`;
      throw new ApiError(
        403,
        'Forbidden',
        `${rt.group ? `${rt.plural}.${rt.group}` : rt.plural} "${obj.metadata.name ?? ''}" is forbidden: ${why}`,
        {
          name: obj.metadata.name ?? '',
          ...(rt.group ? { group: rt.group } : {}),
          kind: rt.plural,
          causes: [{ reason: 'NamespaceTerminating', message: why, field: 'metadata.namespace' }],
        },
      );
    }
  }

  private admissionRequest(
    rt: ResourceType,
    op: AdmissionOperation,
    obj: KubeObject | undefined,
    old: KubeObject | undefined,
    ctx: WriteContext,
    subresource: Subresource,
  ): AdmissionRequest {
    const name = obj?.metadata.name ?? old?.metadata.name ?? '';
    const ns = obj?.metadata.namespace ?? old?.metadata.namespace;
    const req: AdmissionRequest = {
      operation: op,
      kind: { group: rt.group, version: rt.version, kind: rt.kind },
      resource: { group: rt.group, version: rt.version, resource: rt.plural },
      name,
      userInfo: ctx.user,
      dryRun: ctx.dryRun,
    };
    if (ns) req.namespace = ns;
    if (subresource) req.subResource = subresource;
    if (obj) req.object = obj;
    if (old) req.oldObject = old;
    return req;
  }

  /** Field errors of the object itself (name, metadata, schema, kind-specific rules). */
  private validate(
    rt: ResourceType,
    obj: KubeObject,
    old: KubeObject | undefined,
    warnings: string[],
  ): void {
    const errors: FieldError[] = [];
    const name = obj.metadata.name ?? '';
    if (!name)
      errors.push(fieldError.required('metadata.name', 'name or generateName is required'));
    else errors.push(...validateName(name, nameRule(rt)));
    errors.push(...validateMeta(obj));
    errors.push(...validateSchema(obj, rt.schema));
    // x-kubernetes-validations, unless the object is not of the shape its rules were written for.
    if (celValidator(rt.schema)) {
      if (blocksCel(errors)) errors.push(CEL_NOT_CHECKED);
      else {
        const cel = validateCel(rt.schema, obj, old);
        errors.push(...cel.errors);
        warnings.push(...cel.warnings);
      }
    }
    if (rt.validate) errors.push(...rt.validate(obj, old));
    if (old?.metadata.deletionTimestamp) {
      const added = (obj.metadata.finalizers ?? []).filter(
        (f) => !(old.metadata.finalizers ?? []).includes(f),
      );
      if (added.length) {
        errors.push(
          fieldError.forbidden(
            'metadata.finalizers',
            `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
          ),
        );
      }
    }
    if (errors.length) throw invalid(rt, name, errors);
  }

  private async admit(
    rt: ResourceType,
    op: AdmissionOperation,
    obj: KubeObject,
    old: KubeObject | undefined,
    ctx: WriteContext,
    subresource: Subresource,
  ): Promise<void> {
    const req = this.admissionRequest(rt, op, obj, old, ctx, subresource);
    const conv = admissionConverter(rt);
    ctx.warnings.push(...(await this.admission.mutate(req, conv)));
    // kube-apiserver runs mutating admission before the strategy's PrepareForCreate/Update: what
    // a webhook (or a conversion for it) put in the status of a main-resource write is dropped.
    if (rt.statusSubresource && !rt.builtin && subresource === '') {
      if (op === 'CREATE' || old?.status === undefined) removeKey(obj, 'status');
      else obj.status = old.status;
    }
    this.validate(rt, obj, old, ctx.warnings);
    ctx.warnings.push(...(await this.admission.validate(req, conv)));
  }

  private manager(ctx: WriteContext): string {
    return ctx.fieldManager ?? 'unknown';
  }

  // ---------------------------------------------------------------------------------------------
  // create

  async create(
    rt: ResourceType,
    namespace: string | undefined,
    body: unknown,
    ctx: WriteContext,
    managed?: KubeObject['metadata']['managedFields'],
  ): Promise<WriteResult> {
    // The body is ours to change: parsed from the wire, or copied by the in-process client.
    const obj = this.asObject(rt, body);
    this.checkTypeMeta(rt, obj);
    this.decode(rt, obj, ctx);
    this.checkNamespace(rt, namespace, obj);
    const m = obj.metadata;
    if (!m.name && m.generateName) m.name = `${m.generateName}${generateSuffix()}`;
    for (const k of [
      'uid',
      'resourceVersion',
      'creationTimestamp',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
      'generation',
      'selfLink',
    ] as const) {
      removeKey(m, k);
    }
    if (!m.name)
      throw invalid(rt, '', [
        fieldError.required('metadata.name', 'name or generateName is required'),
      ]);
    this.checkNamespaceLive(rt, obj);
    if (this.store.has(rt, m.namespace, m.name)) throw alreadyExists(gr(rt), m.name);
    m.uid = randomUUID();
    m.creationTimestamp = timestamp();
    if (rt.generation) m.generation = 1;
    if (rt.statusSubresource && !rt.builtin) removeKey(obj, 'status');
    rt.normalize?.(obj);
    if (managed) obj.metadata.managedFields = managed;
    else
      trackUpdate(undefined, obj, {
        manager: this.manager(ctx),
        apiVersion: rt.apiVersion,
        schema: rt.schema,
      });
    if (obj.metadata.managedFields?.length)
      obj.metadata.managedFields = sortManagedFields(obj.metadata.managedFields);
    await this.admit(rt, 'CREATE', obj, undefined, ctx, '');
    if (ctx.dryRun) return WriteResult.plain(obj);
    // Admission may have awaited: check again in the commit's tick.
    if (this.store.has(rt, m.namespace, m.name)) throw alreadyExists(gr(rt), m.name);
    this.checkNamespaceLive(rt, obj);
    const stored = this.store.put(rt, obj);
    await this.durable();
    return WriteResult.of(stored);
  }

  // ---------------------------------------------------------------------------------------------
  // update (PUT), for the main resource and the status and scale subresources

  async update(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    body: unknown,
    ctx: WriteContext,
    subresource: Subresource = '',
  ): Promise<WriteResult> {
    if (subresource === 'scale') return this.updateScale(rt, namespace, name, body, ctx);
    const obj = this.asObject(rt, body);
    this.checkTypeMeta(rt, obj);
    const bodyName = obj.metadata.name;
    if (bodyName !== undefined && bodyName !== name) {
      throw badRequest(
        `the name of the object (${bodyName}) does not match the name on the URL (${name})`,
      );
    }
    obj.metadata.name = name;
    this.decode(rt, obj, ctx);
    this.checkNamespace(rt, namespace, obj);
    const current = this.store.get(rt, obj.metadata.namespace, name);
    if (!current) throw notFound(gr(rt), name);
    const rv = obj.metadata.resourceVersion;
    if (!rv && !rt.builtin) {
      throw invalid(rt, name, [
        fieldError.invalid('metadata.resourceVersion', '0x0', 'must be specified for an update'),
      ]);
    }
    if (rv && rv !== String(current.rv)) throw conflict(gr(rt), name);
    return this.commitUpdate(rt, current, obj, ctx, subresource, rv ? current.rv : undefined);
  }

  /** Shared by update and patch: carries system fields over, separates spec and status, commits. */
  private async commitUpdate(
    rt: ResourceType,
    current: Stored,
    incoming: KubeObject,
    ctx: WriteContext,
    subresource: Subresource,
    expectedRv: number | undefined,
    managed?: KubeObject['metadata']['managedFields'],
    parsed?: KubeObject,
  ): Promise<WriteResult> {
    // `parsed`: the caller's parse of `current`, unchanged (a patch parsed it already: parsing
    // the stored JSON is the largest single cost of a write, issue 14).
    const old = parsed ?? current.object();
    let obj: KubeObject;
    if (subresource === 'status') {
      // A status write changes status only (and nothing of metadata), as the real status strategy.
      obj = withStatus(old, incoming.status);
    } else {
      obj = incoming;
      if (rt.statusSubresource) {
        if (old.status === undefined) removeKey(obj, 'status');
        else obj.status = old.status;
      }
    }
    const m = obj.metadata;
    const om = old.metadata;
    m.name = om.name ?? '';
    if (om.namespace !== undefined) m.namespace = om.namespace;
    m.uid = om.uid ?? '';
    m.creationTimestamp = om.creationTimestamp ?? timestamp();
    if (om.deletionTimestamp) m.deletionTimestamp = om.deletionTimestamp;
    else removeKey(m, 'deletionTimestamp');
    if (om.deletionGracePeriodSeconds !== undefined)
      m.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
    else removeKey(m, 'deletionGracePeriodSeconds');
    removeKey(m, 'generateName');
    if (om.generateName) m.generateName = om.generateName;
    if (rt.generation) {
      const gen = om.generation ?? 1;
      m.generation = deepEqual(specOf(rt, obj), specOf(rt, old)) ? gen : gen + 1;
    } else removeKey(m, 'generation');
    rt.normalize?.(obj);
    // The managed fields the update starts from (upstream's decodeLiveOrNew): sent ones replace
    // the live ones, `[]` or `[{}]` resets them; an object without any is not tracked by an
    // update (skipnonapplied.go), only its first apply gives them to "before-first-apply".
    const sent = managed
      ? undefined
      : managedFieldsSent(incoming.metadata.managedFields, subresource);
    const base = sent === 'reset' ? [] : (sent ?? om.managedFields ?? []);
    if (managed) m.managedFields = managed;
    else if (base.length === 0) removeKey(m, 'managedFields');
    else {
      trackUpdateInVersions(
        { ...old, metadata: { ...om, managedFields: base } },
        obj,
        {
          manager: this.manager(ctx),
          apiVersion: rt.apiVersion,
          schema: rt.schema,
          ...(subresource ? { subresource } : {}),
        },
        versionView(rt),
      );
    }
    // trackUpdate leaves no managedFields at all when nobody manages a field (a no-op write).
    if ((m.managedFields ?? []).length === 0) removeKey(m, 'managedFields');
    else m.managedFields = sortManagedFields(m.managedFields ?? []);
    await this.admit(rt, 'UPDATE', obj, old, ctx, subresource);
    // Managed fields count but for their timestamps, as kube-apiserver's
    // IgnoreManagedFieldsTimestampsTransformer: an apply of values that are already there by a
    // new manager is a write (it now shares them), the same apply again is not.
    const unchanged =
      deepEqual(
        {
          ...obj,
          metadata: { ...obj.metadata, resourceVersion: undefined, managedFields: undefined },
        },
        {
          ...old,
          metadata: { ...old.metadata, resourceVersion: undefined, managedFields: undefined },
        },
      ) && deepEqual(untimed(m.managedFields), untimed(om.managedFields));
    if (ctx.dryRun) {
      m.resourceVersion = String(current.rv);
      return WriteResult.plain(obj);
    }
    const now = this.store.get(rt, m.namespace, m.name);
    if (!now) throw notFound(gr(rt), m.name);
    if (now.rv !== current.rv) {
      if (expectedRv !== undefined) throw conflict(gr(rt), m.name);
      throw new RetryableConflict();
    }
    // A no-op write stores nothing and sends no event, as the real server skips it; unless the
    // object is stored in an older storage version: then the write stores it in the current
    // one, as etcd's bytes differ (what kube-storage-version-migrator relies on).
    if (unchanged && !inOlderStorageVersion(rt, current)) return WriteResult.of(current);
    if (m.deletionTimestamp && (m.finalizers ?? []).length === 0) {
      const gone = this.store.remove(rt, now);
      await this.durable();
      return WriteResult.of(gone);
    }
    const stored = this.store.put(rt, obj);
    await this.durable();
    return WriteResult.of(stored);
  }

  // ---------------------------------------------------------------------------------------------
  // scale subresource (autoscaling/v1 Scale)

  scaleOf(rt: ResourceType, s: Stored): KubeObject {
    const obj = s.object();
    const paths = rt.scale;
    if (!paths) throw notFound(gr(rt), s.name);
    const spec = getPath(obj, paths.specReplicasPath);
    const status = getPath(obj, paths.statusReplicasPath);
    const scaleStatus: JsonObject = { replicas: typeof status === 'number' ? status : 0 };
    if (paths.labelSelectorPath) {
      const sel = formatLabelSelector(getPath(obj, paths.labelSelectorPath));
      if (sel) scaleStatus.selector = sel;
    }
    const meta: KubeObject['metadata'] = {
      name: obj.metadata.name ?? '',
      uid: obj.metadata.uid ?? '',
      resourceVersion: obj.metadata.resourceVersion ?? '',
      creationTimestamp: obj.metadata.creationTimestamp ?? null,
    };
    if (obj.metadata.namespace) meta.namespace = obj.metadata.namespace;
    return {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: meta,
      spec: { replicas: typeof spec === 'number' ? spec : 0 },
      status: scaleStatus,
    };
  }

  private async updateScale(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    body: unknown,
    ctx: WriteContext,
  ): Promise<WriteResult> {
    if (!isObject(body)) throw badRequest('Scale must be a JSON object');
    const current = this.store.get(rt, rt.scope === 'Namespaced' ? namespace : undefined, name);
    if (!current) throw notFound(gr(rt), name);
    const meta = isObject(body.metadata) ? body.metadata : {};
    const rv = typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '';
    if (rv && rv !== String(current.rv)) throw conflict(gr(rt), name);
    const replicas = isObject(body.spec) ? body.spec.replicas : undefined;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
      throw invalid({ group: 'autoscaling', kind: 'Scale' }, name, [
        fieldError.invalid('spec.replicas', replicas ?? null, 'must be greater than or equal to 0'),
      ]);
    }
    const obj = current.object();
    setPath(obj, rt.scale?.specReplicasPath ?? 'spec.replicas', replicas);
    await this.commitUpdate(rt, current, obj, ctx, 'scale', rv ? current.rv : undefined);
    const after = ctx.dryRun ? undefined : this.store.get(rt, current.namespace || undefined, name);
    if (after) return WriteResult.plain(this.scaleOf(rt, after));
    // Dry run: answer the Scale the write would produce.
    const scale = this.scaleOf(rt, current);
    (scale.spec as JsonObject).replicas = replicas;
    return WriteResult.plain(scale);
  }

  // ---------------------------------------------------------------------------------------------
  // patch

  async patch(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patchBody: unknown,
    ctx: WriteContext,
    subresource: Subresource = '',
    force = false,
  ): Promise<WriteResult> {
    if (type === 'strategic' && !rt.strategicMergePatch && subresource !== 'scale') {
      throw unsupportedMediaType('application/strategic-merge-patch+json', [
        'application/json-patch+json',
        'application/merge-patch+json',
        'application/apply-patch+yaml',
      ]);
    }
    const ns = rt.scope === 'Namespaced' ? namespace : undefined;
    for (let attempt = 0; ; attempt++) {
      const current = this.store.get(rt, ns, name);
      try {
        if (type === 'apply')
          return await this.apply(rt, ns, name, current, patchBody, ctx, subresource, force);
        if (!current) throw notFound(gr(rt), name);
        if (subresource === 'scale') {
          const scale = this.scaleOf(rt, current);
          const patched = this.applyPatch(type, scale, patchBody, undefined);
          return await this.updateScale(rt, ns, name, patched, ctx);
        }
        // Parsed once: `old` stays as stored (the write compares against it and admission sees
        // it as oldObject), the patch builds on a copy of it (a walk is ~3x cheaper than a parse;
        // a merge patch shares the subtrees it does not touch with its base, and decoding the
        // result changes them in place).
        const old = current.object();
        const base = clone(old);
        const patched = this.applyPatch(type, base, patchBody, rt.schema);
        // What a patch builds is bounded like a body before anything walks it.
        checkObjectBounds(patched);
        if (!isObject(patched)) throw badRequest('the patch produced a non-object');
        this.checkPatchedMetadata(rt, patched);
        const obj = patched as KubeObject;
        if (!isObject(obj.metadata)) obj.metadata = {};
        normalizeNulls(obj.metadata);
        const rv = obj.metadata.resourceVersion;
        if (rv !== undefined && rv !== String(current.rv)) throw conflict(gr(rt), name);
        if (obj.metadata.name !== undefined && obj.metadata.name !== name) {
          throw badRequest(
            `the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`,
          );
        }
        this.checkTypeMeta(rt, obj);
        this.decode(rt, obj, ctx);
        this.checkPatchedNamespace(rt, ns, obj);
        const patchRv =
          isObject(patchBody) && isObject(patchBody.metadata)
            ? patchBody.metadata.resourceVersion
            : undefined;
        return await this.commitUpdate(
          rt,
          current,
          obj,
          ctx,
          subresource,
          typeof patchRv === 'string' ? current.rv : undefined,
          undefined,
          old,
        );
      } catch (e) {
        // A patch without a precondition is retried against the newer version, as the real server.
        if (e instanceof RetryableConflict && attempt < 5) continue;
        if (e instanceof RetryableConflict) throw conflict(gr(rt), name);
        throw e;
      }
    }
  }

  private applyPatch(
    type: PatchType,
    base: unknown,
    patchBody: unknown,
    schema: JSONSchemaProps | undefined,
  ): unknown {
    switch (type) {
      case 'json':
        return applyJsonPatch(base, parseJsonPatch(patchBody));
      case 'merge':
        if (!isObject(patchBody))
          throw badRequest(
            'json: cannot unmarshal array into Go value of type map[string]interface {}',
          );
        return mergePatch(base, patchBody);
      case 'strategic':
        return strategicMergePatch(base, patchBody, withMetaPatchMeta(schema));
      case 'apply':
        throw badRequest('apply is not a patch of an existing object');
    }
  }

  private async apply(
    rt: ResourceType,
    ns: string | undefined,
    name: string,
    current: Stored | undefined,
    body: unknown,
    ctx: WriteContext,
    subresource: Subresource,
    force: boolean,
  ): Promise<WriteResult> {
    if (!ctx.fieldManager) {
      throw badRequest('PATCH /apply requests require a fieldManager query parameter');
    }
    const applied = this.asObject(rt, body);
    const appliedVersion: unknown = applied.apiVersion;
    const appliedKind: unknown = applied.kind;
    if (appliedVersion !== rt.apiVersion || appliedKind !== rt.kind) {
      if (appliedVersion === undefined || appliedKind === undefined) {
        throw badRequest('invalid object type: /, Kind=');
      }
      this.checkTypeMeta(rt, applied);
    }
    if (applied.metadata.name !== undefined && applied.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${applied.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    applied.metadata.name = name;
    if (ns !== undefined) {
      if (applied.metadata.namespace !== undefined && applied.metadata.namespace !== ns) {
        throw badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      applied.metadata.namespace = ns;
    }
    // Defaults belong to the result, not to the applier's field set.
    this.decode(rt, applied, ctx, false);
    const opts = {
      manager: ctx.fieldManager,
      force,
      apiVersion: rt.apiVersion,
      schema: rt.schema,
      ...(subresource ? { subresource } : {}),
    };
    if (!current) {
      if (subresource) throw notFound(gr(rt), name);
      const created = serverSideApply(undefined, applied, opts);
      return this.create(rt, ns, created, ctx, created.metadata.managedFields ?? []);
    }
    const merged = applyInVersions(current.object(), applied, opts, versionView(rt));
    checkObjectBounds(merged);
    pruneAndDefault(merged, rt.schema);
    return this.commitUpdate(
      rt,
      current,
      merged,
      ctx,
      subresource,
      undefined,
      merged.metadata.managedFields ?? [],
    );
  }

  // ---------------------------------------------------------------------------------------------
  // delete

  async delete(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions,
    ctx: WriteContext,
  ): Promise<DeleteResult> {
    const ns = rt.scope === 'Namespaced' ? namespace : undefined;
    const current = this.store.get(rt, ns, name);
    if (!current) throw notFound(gr(rt), name);
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== current.uid) {
      throw conflict(
        gr(rt),
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.uid}`,
      );
    }
    if (pre?.resourceVersion && pre.resourceVersion !== String(current.rv)) {
      throw conflict(
        gr(rt),
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.rv}`,
      );
    }
    const old = current.object();
    const req = this.admissionRequest(rt, 'DELETE', undefined, old, ctx, '');
    const conv = admissionConverter(rt);
    ctx.warnings.push(...(await this.admission.mutate(req, conv)));
    ctx.warnings.push(...(await this.admission.validate(req, conv)));

    const policy = options.propagationPolicy ?? 'Background';
    const gcFinalizer =
      policy === 'Foreground' ? 'foregroundDeletion' : policy === 'Orphan' ? 'orphan' : undefined;
    const finalizers = [...(old.metadata.finalizers ?? [])];
    const isNamespace = rt.kind === 'Namespace' && rt.group === '';
    // Graceful deletion (Pods, rest.BeforeDelete): a grace period keeps the object, with its
    // deletionTimestamp that far ahead, until a DELETE with 0 (its kubelet's) removes it; a
    // second DELETE may only shorten it.
    const grace = rt.gracefulDelete
      ? Math.max(0, options.gracePeriodSeconds ?? rt.gracefulDelete(old))
      : 0;
    if (rt.gracefulDelete && grace > 0) {
      const had = old.metadata.deletionGracePeriodSeconds;
      if (!current.deleting || (typeof had === 'number' && grace < had)) {
        const obj = clone(old);
        obj.metadata.deletionTimestamp = new Date(
          Math.floor(Date.now() / 1000) * 1000 + grace * 1000,
        )
          .toISOString()
          .replace('.000Z', 'Z');
        obj.metadata.deletionGracePeriodSeconds = grace;
        if (gcFinalizer && !finalizers.includes(gcFinalizer))
          obj.metadata.finalizers = [...finalizers, gcFinalizer];
        if (ctx.dryRun) return { deleted: false, obj };
        return { deleted: false, obj: (await this.putChecked(rt, current, obj)).object() };
      }
      return { deleted: false, obj: old };
    }
    const gracefulNow = rt.gracefulDelete !== undefined && finalizers.length === 0;
    if (current.deleting && !gracefulNow) {
      // Already terminating: a new policy may still add its finalizer, as the real server does.
      if (gcFinalizer && !finalizers.includes(gcFinalizer) && !ctx.dryRun) {
        const obj = clone(old);
        obj.metadata.finalizers = [
          ...finalizers.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion'),
          gcFinalizer,
        ];
        return { deleted: false, obj: (await this.putChecked(rt, current, obj)).object() };
      }
      return { deleted: false, obj: old };
    }
    if (finalizers.length > 0 || gcFinalizer || isNamespace) {
      const obj = clone(old);
      obj.metadata.deletionTimestamp = timestamp();
      obj.metadata.deletionGracePeriodSeconds = 0;
      if (gcFinalizer && !finalizers.includes(gcFinalizer))
        obj.metadata.finalizers = [...finalizers, gcFinalizer];
      if (isNamespace) {
        const status = isObject(obj.status) ? obj.status : {};
        status.phase = 'Terminating';
        obj.status = status;
      }
      if (ctx.dryRun) return { deleted: false, obj };
      return { deleted: false, obj: (await this.putChecked(rt, current, obj)).object() };
    }
    if (ctx.dryRun) return { deleted: true, obj: old };
    const latest = this.store.get(rt, ns, name);
    if (!latest) throw notFound(gr(rt), name);
    if (latest.rv !== current.rv) return this.delete(rt, namespace, name, options, ctx);
    const gone = this.store.remove(rt, latest);
    await this.durable();
    return { deleted: true, obj: gone.object() };
  }

  private async putChecked(rt: ResourceType, current: Stored, obj: KubeObject): Promise<Stored> {
    const latest = this.store.get(rt, current.namespace || undefined, current.name);
    if (latest?.rv !== current.rv) throw conflict(gr(rt), current.name);
    const s = this.store.put(rt, obj);
    await this.durable();
    return s;
  }

  /** Removes finalizers on behalf of the system (garbage collector, namespace controller). */
  async systemUpdate(
    rt: ResourceType,
    current: Stored,
    change: (obj: KubeObject) => void,
  ): Promise<void> {
    const obj = current.object();
    change(obj);
    const latest = this.store.get(rt, current.namespace || undefined, current.name);
    if (latest?.rv !== current.rv) return;
    if (obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).length === 0) {
      this.store.remove(rt, latest);
    } else {
      this.store.put(rt, obj);
    }
    await this.durable();
  }

  registryRef(): Registry {
    return this.registry;
  }
}

/** Managed-fields entries without their timestamps. */
function untimed(entries: readonly JsonObject[] | undefined): JsonObject[] {
  return (entries ?? []).map((e) => ({ ...e, time: undefined }));
}

/** The object is stored in another version than its kind's storage version (moved since). */
function inOlderStorageVersion(rt: ResourceType, s: Stored): boolean {
  const set = rt.versions;
  return set?.keepsStoredVersion === true && s.base.rt.apiVersion !== set.storage.apiVersion;
}

/** Objects of `rt` seen in another version of its kind, for the managed fields of its managers. */
function versionView(rt: ResourceType): VersionView | undefined {
  const set = rt.versions;
  if (!set?.keepsStoredVersion) return undefined;
  const member = (apiVersion: string) => set.members.find((m) => m.apiVersion === apiVersion);
  return {
    to: (obj, apiVersion) => {
      const to = member(apiVersion);
      if (!to) return undefined;
      return { obj: convertOne(set, obj, rt, to), schema: to.schema };
    },
    from: (obj, apiVersion) => {
      const from = member(apiVersion);
      if (!from) throw new Error(`${set.key} has no version ${apiVersion}`);
      return convertOne(set, obj, from, rt);
    },
  };
}

/**
 * Admission of a kind with several versions: each hook sees the request in the version it takes
 * (the first of `hook.versions` the kind has, else the storage version). The two Event APIs are
 * admitted as requested.
 */
function admissionConverter(rt: ResourceType): AdmissionConverter | undefined {
  const set = rt.versions;
  if (!set?.admitInStorageVersion) return undefined;
  const member = (version: string): ResourceType => {
    const m = set.members.find((x) => x.version === version);
    if (!m) throw new Error(`${set.key} has no version ${version}`);
    return m;
  };
  return {
    versionFor: (hook) =>
      hook.versions?.find((v) => set.members.some((m) => m.version === v)) ?? set.storage.version,
    to: (obj, version) => convertOne(set, obj, rt, member(version)),
    from: (obj, version) => convertOne(set, obj, member(version), rt),
  };
}

/** A patch raced with another write: retry against the newer version. */
export class RetryableConflict extends Error {}

/** Strategic merge metadata of ObjectMeta, which every kind's patches share. */
function withMetaPatchMeta(schema: JSONSchemaProps | undefined): JSONSchemaProps {
  const meta: JSONSchemaProps = {
    type: 'object',
    properties: {
      finalizers: {
        type: 'array',
        items: { type: 'string' },
        'x-kubernetes-patch-strategy': 'merge',
      },
      ownerReferences: {
        type: 'array',
        items: { type: 'object' },
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'uid',
      },
    },
  };
  return {
    ...(schema ?? { type: 'object' }),
    properties: { ...(schema?.properties ?? {}), metadata: meta },
  };
}
