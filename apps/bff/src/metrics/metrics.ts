import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The BFF's Prometheus instruments, in one registry per app (tests build many apps). */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  upstreamDuration: Histogram<'method' | 'status'>;
  sseClients: Gauge;
  sseEvents: Counter;
  sseResyncs: Counter<'reason'>;
  /** Issue 28: a room's refresh-and-sends, by how they began (sent at once, or after a window). */
  sseFlushes: Counter<'regime'>;
  mutations: Counter<'operation' | 'result'>;
  accessReviews: Counter<'result'>;
  invalidObjects: Counter<'kind'>;
  /** Issue 12: audit records written, by sink (configmap, event) and result (ok, failed). */
  auditWrites: Counter<'sink' | 'result'>;
  /** Audit records dropped by retention or the size cap. */
  auditDropped: Counter;
}

export function createMetrics(collectDefaults = true): Metrics {
  const registry = new Registry();
  if (collectDefaults) collectDefaultMetrics({ register: registry, prefix: 'dcs_bff_' });
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: 'dcs_bff_http_request_duration_seconds',
      help: 'HTTP request latency by route',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    upstreamDuration: new Histogram({
      name: 'dcs_bff_upstream_request_duration_seconds',
      help: 'Latency of requests to the Kubernetes API made with users’ credentials',
      labelNames: ['method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    sseClients: new Gauge({ name: 'dcs_bff_sse_clients', help: 'Open SSE streams', registers }),
    sseEvents: new Counter({
      name: 'dcs_bff_sse_events_total',
      help: 'Change events delivered or queued, summed over clients',
      registers,
    }),
    sseResyncs: new Counter({
      name: 'dcs_bff_sse_resyncs_total',
      help: 'resync events sent, by reason',
      labelNames: ['reason'],
      registers,
    }),
    sseFlushes: new Counter({
      name: 'dcs_bff_sse_flushes_total',
      help: 'Refresh-and-sends of a cluster to its streams, by regime: immediate (the cluster was quiet for its window, sent at once) or windowed (waited for the window, batched)',
      labelNames: ['regime'],
      registers,
    }),
    mutations: new Counter({
      name: 'dcs_bff_mutations_total',
      help: 'Mutating requests by operation and result',
      labelNames: ['operation', 'result'],
      registers,
    }),
    accessReviews: new Counter({
      name: 'dcs_bff_access_reviews_total',
      help: 'Access reviews asked of the API server (cache misses), by answer',
      labelNames: ['result'],
      registers,
    }),
    invalidObjects: new Counter({
      name: 'dcs_bff_invalid_objects_total',
      help: 'Watched objects that failed their schema and were kept out of the cache',
      labelNames: ['kind'],
      registers,
    }),
    auditWrites: new Counter({
      name: 'dcs_bff_audit_writes_total',
      help: 'Audit records written to the management cluster, by sink (configmap, event) and result (ok, failed)',
      labelNames: ['sink', 'result'],
      registers,
    }),
    auditDropped: new Counter({
      name: 'dcs_bff_audit_dropped_total',
      help: 'Audit records dropped from a ConfigMap by retention or the size cap',
      registers,
    }),
  };
}
