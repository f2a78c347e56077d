import { applyJsonPatch, applyMergePatch, findKind, type JsonPatchOp } from '@dcs/domain';
import { errorFromResponse } from '../../src/kube/errors';
import type { KubeClient, KubeResponse, RequestOptions } from '../../src/kube/rest';

/**
 * An in-memory stand-in for the API server's object verbs, for unit tests of the executor:
 * resourceVersions, uids, dryRun, delete preconditions, JSON patch `test` ops, and injected
 * failures. Integration tests use the embedded cluster instead.
 */

interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
  [k: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  dryRun: boolean;
  body: unknown;
}

interface Failure {
  method: string;
  kind: string;
  name?: string;
  status: number;
  reason: string;
  message: string;
  dryRun?: boolean;
  /** `details.causes` of the Status. */
  causes?: { reason?: string; message?: string; field?: string }[];
}

const PATH = /^\/(?:api\/v1|apis\/[^/]+\/[^/]+)\/namespaces\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/;

export class FakeKube implements KubeClient {
  readonly objects = new Map<string, Obj>();
  readonly requests: RecordedRequest[] = [];
  #rv = 100;
  #uid = 0;
  #failures: Failure[] = [];

  put(kind: string, obj: Obj): Obj {
    const stored = {
      ...obj,
      kind,
      metadata: { ...obj.metadata, uid: `uid-${++this.#uid}`, resourceVersion: String(++this.#rv) },
    };
    this.objects.set(`${kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`, stored);
    return stored;
  }

  get(kind: string, namespace: string, name: string): Obj | undefined {
    return this.objects.get(`${kind}/${namespace}/${name}`);
  }

  /** The next matching request fails with this status (once). */
  failNext(f: Failure): void {
    this.#failures.push(f);
  }

  writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.method !== 'GET' && !r.dryRun);
  }

  request(method: string, path: string, options: RequestOptions = {}): Promise<KubeResponse> {
    try {
      return Promise.resolve(this.#handle(method, path, options));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #handle(method: string, path: string, options: RequestOptions): KubeResponse {
    const m = PATH.exec(path);
    if (!m) throw errorFromResponse(404, { code: 404, reason: 'NotFound', message: path });
    const [, ns = '', plural = '', name] = m;
    const kind = findKind(plural)?.kind ?? plural;
    const dryRun = options.query?.dryRun === 'All';
    this.requests.push({ method, path, dryRun, body: options.body });
    const fi = this.#failures.findIndex(
      (f) =>
        f.method === method &&
        f.kind === kind &&
        (f.name === undefined ||
          f.name === (name ?? (options.body as Obj | undefined)?.metadata.name)) &&
        (f.dryRun === undefined || f.dryRun === dryRun),
    );
    const failure = this.#failures[fi];
    if (failure) {
      this.#failures.splice(fi, 1);
      throw errorFromResponse(failure.status, {
        code: failure.status,
        reason: failure.reason,
        message: failure.message,
        ...(failure.causes ? { details: { causes: failure.causes } } : {}),
      });
    }
    const notFound = () =>
      errorFromResponse(404, {
        code: 404,
        reason: 'NotFound',
        message: `${kind} ${name ?? ''} not found`,
      });
    const conflict = (message: string) =>
      errorFromResponse(409, { code: 409, reason: 'Conflict', message });
    const key = (n: string) => `${kind}/${ns}/${n}`;

    if (method === 'POST') {
      const body = options.body as Obj;
      const n = body.metadata.name ?? '';
      if (this.objects.has(key(n))) {
        throw errorFromResponse(409, {
          code: 409,
          reason: 'AlreadyExists',
          message: `${n} exists`,
        });
      }
      const created = {
        ...body,
        metadata: {
          ...body.metadata,
          namespace: ns,
          uid: `uid-${this.#uid + 1}`,
          resourceVersion: String(this.#rv + 1),
        },
      };
      if (!dryRun) {
        this.#uid++;
        this.#rv++;
        this.objects.set(key(n), created);
      }
      return { status: 201, body: created };
    }
    if (name === undefined) throw notFound();
    const current = this.objects.get(key(name));
    if (!current) throw notFound();
    if (method === 'GET') return { status: 200, body: current };
    if (method === 'DELETE') {
      const pre = (
        options.body as { preconditions?: { uid?: string; resourceVersion?: string } } | undefined
      )?.preconditions;
      if (pre?.uid !== undefined && pre.uid !== current.metadata.uid)
        throw conflict('uid precondition failed');
      if (
        pre?.resourceVersion !== undefined &&
        pre.resourceVersion !== current.metadata.resourceVersion
      ) {
        throw conflict('resourceVersion precondition failed');
      }
      if (!dryRun) this.objects.delete(key(name));
      return { status: 200, body: { kind: 'Status', status: 'Success' } };
    }
    let next: Obj;
    if (method === 'PUT') {
      const body = options.body as Obj;
      if (body.metadata.resourceVersion !== current.metadata.resourceVersion) {
        throw conflict('the object has been modified');
      }
      next = body;
    } else if (options.contentType === 'application/json-patch+json') {
      try {
        next = applyJsonPatch(current, options.body as JsonPatchOp[]);
      } catch {
        // As the embedded API server answers (kube-apiserver may add the cause; callers must
        // not rely on it): nothing says a `test` op failed.
        throw errorFromResponse(422, {
          code: 422,
          reason: 'Invalid',
          message: 'the server rejected our request due to an error in our request',
        });
      }
    } else {
      const doc = options.body as { metadata?: { resourceVersion?: string } };
      const rv = doc.metadata?.resourceVersion;
      if (rv !== undefined && rv !== current.metadata.resourceVersion)
        throw conflict('the object has been modified');
      next = applyMergePatch(current, options.body);
    }
    const stored = {
      ...next,
      metadata: {
        ...next.metadata,
        uid: current.metadata.uid,
        resourceVersion: String(this.#rv + 1),
      },
    };
    if (!dryRun) {
      this.#rv++;
      this.objects.set(key(name), stored);
    }
    return { status: 200, body: stored };
  }
}
