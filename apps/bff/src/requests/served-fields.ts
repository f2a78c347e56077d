import {
  requestIssues,
  requestSchemasFor,
  servedRequestFieldTrees,
  servedSchemaPaths,
  type FieldTreeSources,
  type OpenApiV3DocumentLike,
  type RequestFieldTrees,
} from '@dcs/domain';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors';
import type { KubeClient } from '../kube/rest';

/**
 * What a request may write, judged by the schemas the management cluster serves (issue 11
 * follow-up): a real DCS provider's CRD may have fields the domain does not model, and a clone of
 * a template that uses them must keep them. The OpenAPI v3 documents of the groups the requests
 * write into (`/openapi/v3/apis/{group}/{version}`, readable by every authenticated user on a
 * real cluster) are read with the BFF's own identity, at most once a minute; a part whose kind a
 * document does not describe, or a document that cannot be read, is judged by the domain's tree
 * (`DOMAIN_FIELD_TREES`). Pure decisions are domain's (`servedRequestFieldTrees`).
 */

export interface ServedFieldTreesOptions {
  /** How long one reading of the documents is used (default 60 s). */
  ttlMs?: number;
  now?: () => number;
}

export interface ServedFields {
  trees: RequestFieldTrees;
  sources: FieldTreeSources;
}

export class ServedFieldTrees {
  #current: ServedFields | undefined;
  #readAt = -Infinity;
  #reading: Promise<ServedFields> | undefined;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(
    private readonly client: KubeClient,
    private readonly log: FastifyBaseLogger,
    options: ServedFieldTreesOptions = {},
  ) {
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** The trees to judge requests by now; never throws (the domain's trees when nothing is read). */
  async current(): Promise<ServedFields> {
    if (this.#current && this.#now() - this.#readAt < this.#ttlMs) return this.#current;
    this.#reading ??= this.#read().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  async #read(): Promise<ServedFields> {
    const docs: Record<string, OpenApiV3DocumentLike | undefined> = {};
    await Promise.all(
      servedSchemaPaths().map(async (path) => {
        try {
          const res = await this.client.request('GET', `/openapi/v3/${path}`, {
            timeoutMs: 10_000,
          });
          if (typeof res.body === 'object' && res.body !== null) {
            docs[path] = res.body;
          }
        } catch (error) {
          this.log.warn(
            { err: error, path },
            'cannot read the served OpenAPI schema; judging request fields by the domain schemas',
          );
        }
      }),
    );
    const read = servedRequestFieldTrees(docs);
    // The same trees object while nothing changed, so the schemas built for it are reused.
    const same =
      this.#current !== undefined &&
      JSON.stringify(this.#current.trees) === JSON.stringify(read.trees);
    const next = same && this.#current ? { ...this.#current, sources: read.sources } : read;
    if (!same) this.log.info({ sources: read.sources }, 'request field trees read');
    this.#current = next;
    this.#readAt = this.#now();
    return next;
  }
}

/**
 * Bodies a `servedBody` hook has parsed with the request's own schema (on the served trees): the
 * app's validator compiler passes them as they are (app.ts).
 */
export const prevalidated = new WeakSet<object>();

/** Lets the event loop run what waits (other requests, timers) before going on. */
export const yieldToLoop = (): Promise<void> =>
  new Promise((resolve) => {
    setImmediate(resolve);
  });

/** Trees that know every field: the route's own body schema checks the rest (shape, formats). */
const OPEN: RequestFieldTrees = {
  machineTemplateSpec: { open: true },
  ipPoolEntry: { open: true },
  kubeadmConfigSpec: { open: true },
  controlPlaneConfigSpec: { open: true },
};

type Schemas = ReturnType<typeof requestSchemasFor>;
export type RequestSchemaName = {
  [K in keyof Schemas]: K extends `${string}RequestSchema` ? K : never;
}[keyof Schemas];

/**
 * A route's body schema and the hook that judges it by the served schemas. The hook runs the
 * request schema built on the served trees before Fastify's validation, so that a refusal names
 * every problem at once, the unknown fields among them; the route's own schema (every part open)
 * then only types and transforms the body it has passed.
 */
export function servedBody<N extends RequestSchemaName>(
  served: () => ServedFieldTrees,
  name: N,
): {
  body: Schemas[N];
  preValidation: (request: FastifyRequest) => Promise<void>;
} {
  return {
    body: requestSchemasFor(OPEN)[name],
    preValidation: async (request) => {
      const { trees } = await served().current();
      const parsed = requestSchemasFor(trees)[name].safeParse(request.body);
      if (parsed.success) {
        // The route's schema would parse the same body again to the same value (what passed
        // here has no field the open trees judge otherwise): it takes this one (`prevalidated`),
        // and the next stretch of work (validation, the planner) starts after other requests
        // had their turn (issue 25, item 6: a 3,000-entry IP-pool edit held the loop ~1 s).
        request.body = parsed.data;
        prevalidated.add(parsed.data);
        await yieldToLoop();
        return;
      }
      const details = requestIssues(parsed.error, request.body);
      throw new HttpError(400, 'BadRequest', details[0]?.message ?? 'invalid request', details);
    },
  };
}
