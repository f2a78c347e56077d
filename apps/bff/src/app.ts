import fastifyCompress from '@fastify/compress';
import { requestIssues } from '@dcs/domain';
import type { KubeConfig } from '@kubernetes/client-node';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SourceFactory } from './cache/source';
import type { Config } from './config/env';
import { HttpError, issue, issuesOfApiError } from './http/errors';
import { HEADERS_TOO_LARGE, KubeApiError, UpstreamUnreachableError } from './kube/errors';
import type { ExecutorOptions } from './plan/executor';
import { prevalidated } from './requests/served-fields';
import authPlugin from './plugins/app/auth';
import cachePlugin from './plugins/app/cache';
import configPlugin from './plugins/app/config';
import guardPlugin, { MUTATING } from './plugins/app/guard';
import hubPlugin from './plugins/app/hub';
import kubePlugin from './plugins/app/kube';
import metricsPlugin from './plugins/app/metrics';
import mutationsPlugin from './plugins/app/mutations';
import workloadNodesPlugin from './plugins/app/nodes';
import revocationsPlugin from './plugins/app/revocations';
import servedFieldsPlugin from './plugins/app/served-fields';
import { registerExternal } from './plugins/external';
import clusters from './routes/api/clusters';
import controlPlaneConfig from './routes/api/control-plane-config';
import diskMigration from './routes/api/disk-migration';
import ippools from './routes/api/ippools';
import nodepoolWrites from './routes/api/nodepool-writes';
import nodepools from './routes/api/nodepools';
import objectTree from './routes/api/tree';
import workloadNodes from './routes/api/nodes';
import objects from './routes/api/objects';
import pause from './routes/api/pause';
import autoscale from './routes/api/autoscale';
import healthCheck from './routes/api/health-check';
import restart from './routes/api/restart';
import session from './routes/api/session';
import sessionOidc from './routes/api/session-oidc';
import stream from './routes/api/stream';
// Issue 12: the audit timeline.
import events from './routes/api/events';
import timeline from './routes/api/timeline';
import health from './routes/health';
import { registerStatic } from './routes/static';
import { API_COMPRESSION } from './http/compression';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route serves requests without a principal (session routes); guards still apply. */
    public?: boolean;
  }
}

export interface AppOptions {
  config: Config;
  /** The BFF's own kubeconfig; default: loaded as the config says. */
  kubeConfig?: KubeConfig;
  /** Tests may feed the cache from fakes; default: packages/informer. */
  sources?: SourceFactory;
  logger?: FastifyServerOptions['logger'];
  epoch?: string;
  executor?: ExecutorOptions;
  verifyScaleDownMs?: number;
}

/** pino, without credentials: tokens and cookies never reach a log line. */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'token',
        '*.token',
        'body.token',
      ],
      censor: '[redacted]',
    },
  };
}

/**
 * The app in tiers (fastify/demo): external plugins, then app decorators (config → metrics →
 * kube → cache → revocations → auth → guard → hub → mutations), then routes. Nothing listens here; `serve`
 * does, tests `inject()`.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // Stream ids and request ids are ours; a client-sent id is not trusted into logs.
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  // A body the route's served-fields hook already parsed with the same request schema is not
  // parsed again (requests/served-fields.ts): at 3,000 IP-pool entries that was 120 ms.
  app.setValidatorCompiler<z.ZodType>((route) => {
    const validate = validatorCompiler(route);
    if (route.httpPart !== 'body') return validate;
    return (data: unknown) =>
      typeof data === 'object' && data !== null && prevalidated.has(data)
        ? { value: data }
        : validate(data);
  });
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);

  await registerExternal(app);
  await app.register(configPlugin, { config });
  await app.register(metricsPlugin);
  await app.register(kubePlugin, options.kubeConfig ? { kubeConfig: options.kubeConfig } : {});
  await app.register(cachePlugin, options.sources ? { sources: options.sources } : {});
  await app.register(revocationsPlugin);
  await app.register(authPlugin);
  await app.register(guardPlugin);
  await app.register(hubPlugin, options.epoch !== undefined ? { epoch: options.epoch } : {});
  await app.register(mutationsPlugin, options.executor ? { executor: options.executor } : {});
  // Issue 12: the workload clusters' Nodes.
  await app.register(workloadNodesPlugin);
  // Issue 11: request fields judged by the schemas the management cluster serves.
  await app.register(servedFieldsPlugin);

  await app.register(health);
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
  await app.register(
    async (api) => {
      // Issue 28: JSON answers compressed (a 200-pool view is ~450 KB, ~40 KB compressed): br at
      // quality 4 or gzip by Accept-Encoding, above 1 KiB, large ones off the event loop in zlib's
      // thread pool. The API's routes only: the SPA's files are precompressed, the stream is
      // written raw, and the session's answer (its CSRF token) opts out (routes/api/session.ts).
      await api.register(fastifyCompress, API_COMPRESSION);
      // Order of refusal: no credentials (401) before a foreign origin or a missing CSRF token (403).
      api.addHook('onRequest', async (request) => {
        const mutating = MUTATING.has(request.method);
        if (request.routeOptions.config.public !== true) await app.principalOf(request);
        if (mutating || request.routeOptions.url === '/api/v1/stream')
          app.checkOrigin(request, mutating);
        if (mutating) app.checkCsrf(request);
      });
      await api.register(session);
      // OIDC mode's sign-in routes exist only in that mode (the OpenAPI document says so).
      if (config.authMode === 'oidc') await api.register(sessionOidc);
      await api.register(clusters);
      await api.register(nodepools);
      await api.register(
        nodepoolWrites,
        options.verifyScaleDownMs !== undefined
          ? { verifyScaleDownMs: options.verifyScaleDownMs }
          : {},
      );
      await api.register(ippools);
      // Issue 12 (h-kcp): the control plane's kubeadm config; the R-DISK-5 migration plan.
      await api.register(controlPlaneConfig);
      await api.register(diskMigration);
      // Issue 26: pause and resume reconciliation of a cluster or of one pool.
      await api.register(pause);
      // Issue 26 item 2: the cluster autoscaler's bounds of a pool, and its status.
      await api.register(autoscale);
      // Issue 26 item 1: a pool's MachineHealthCheck.
      await api.register(healthCheck);
      // Issue 26 item 4: a rollout restart of a pool or of the control plane (rolloutAfter).
      await api.register(restart);
      await api.register(objects);
      await api.register(stream);
      // Issue 12: the audit timeline.
      await api.register(timeline);
      // Issue 26: the Events of one page's objects.
      await api.register(events);
      await api.register(objectTree);
      // Issue 12: the workload clusters' Nodes.
      await api.register(workloadNodes);
    },
    { prefix: '/api/v1' },
  );
  await registerStatic(app, config.staticDir);
  return app;
}

/** Every error as `{code, message, details: RuleIssue[]}`, naming the field and the rule. */
function errorHandler(
  this: FastifyInstance,
  error: FastifyError,
  request: Parameters<FastifyInstance['errorHandler']>[1],
  reply: Parameters<FastifyInstance['errorHandler']>[2],
) {
  if (error instanceof HttpError) {
    const { audited: _a, retryAfterSeconds, ...extra } = error.extra;
    if (typeof retryAfterSeconds === 'number') void reply.header('Retry-After', retryAfterSeconds);
    return reply
      .code(error.statusCode)
      .send({ code: error.code, message: error.message, details: error.details, ...extra });
  }
  if (hasZodFastifySchemaValidationErrors(error) && error.validationContext === 'body') {
    // The body is one of domain's request schemas: domain's one reading of a refusal, which
    // names the rule that owns each field (requestFieldRule) in the form's words (issue 12).
    const issues = error.validation.map(
      (v) =>
        ({
          ...v.params,
          code: v.keyword,
          message: v.message ?? 'invalid',
          path: v.instancePath
            .split('/')
            .filter((p) => p !== '')
            .map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
        }) as unknown as z.core.$ZodIssue,
    );
    const details = requestIssues(new z.ZodError(issues), request.body);
    return reply
      .code(400)
      .send({ code: 'BadRequest', message: details[0]?.message ?? 'invalid request', details });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details = error.validation.map((v) => {
      const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
      return issue(
        'R-REQUEST',
        path,
        'bff.request.invalid',
        `${path || (error.validationContext ?? 'request')}: ${v.message ?? 'invalid'}`,
      );
    });
    return reply
      .code(400)
      .send({ code: 'BadRequest', message: details[0]?.message ?? 'invalid request', details });
  }
  if (error instanceof UpstreamUnreachableError) {
    // Not the client's fault and not a bug: the management cluster cannot be asked right now.
    const status = error.tls ? 502 : 503;
    return reply.code(status).send({
      code: error.reason,
      message: error.message,
      details: [issue('R-API', '', 'bff.api.unavailable', error.message)],
    });
  }
  if (error instanceof KubeApiError && error.status === 504) {
    return reply.code(503).send({
      code: 'UpstreamTimeout',
      message: error.message,
      details: [issue('R-API', '', 'bff.api.unavailable', error.message)],
    });
  }
  if (error instanceof KubeApiError && error.status === HEADERS_TOO_LARGE) {
    return reply.code(400).send({
      code: 'CredentialTooLarge',
      message: error.message,
      details: [issue('R-AUTH', 'token', 'bff.auth.tokenTooLarge', error.message)],
    });
  }
  if (error instanceof KubeApiError) {
    const status =
      error.status === 401 ? 401 : error.status === 403 ? 403 : error.status === 404 ? 404 : 502;
    return reply.code(status).send({
      code: status === 502 ? 'UpstreamError' : (error.reason ?? 'Error'),
      message: error.message,
      details: issuesOfApiError(error),
    });
  }
  const status =
    error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
      ? error.statusCode
      : 500;
  if (status === 500) request.log.error({ err: error }, 'unhandled error');
  const message = status === 500 ? 'internal error' : error.message;
  return reply.code(status).send({
    code:
      status === 429
        ? 'TooManyRequests'
        : status === 413
          ? 'PayloadTooLarge'
          : status === 500
            ? 'InternalError'
            : error.code || 'Error',
    message,
    details: [issue('R-REQUEST', '', `bff.http.${String(status)}`, message)],
  });
}
