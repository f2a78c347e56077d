import { randomUUID } from 'node:crypto';
import {
  AUDIT_DATA_KEY,
  AUDIT_LABEL,
  AUDIT_RECORD_ANNOTATION,
  AUDIT_REPORTING_CONTROLLER,
  appendAuditRecords,
  auditConfigMapName,
  auditRecordOf,
  auditSummary,
  isAuditFailure,
  kindTable,
  parseAuditRecords,
  serializeAuditRecords,
  type AuditBounds,
  type AuditInput,
  type AuditRecord,
  type KindName,
} from '@dcs/domain';
import type { FastifyBaseLogger } from 'fastify';
import { KubeApiError } from '../kube/errors';
import type { KubeClient } from '../kube/rest';
import type { Metrics } from '../metrics/metrics';

/**
 * The audit recorder (issue 12): each console operation becomes a record in the cluster's
 * bounded ConfigMap `dcs-console-audit.<cluster>` and, unless it was only a preview, an
 * events.k8s.io/v1 Event about the object it changed, reported by the console. Both are written
 * with the BFF's own identity, so that a user's rights decide what they may change, not whether
 * their change is recorded. Several replicas append to one ConfigMap: each write is an update
 * with the resourceVersion it read, retried on 409 after a short random pause. A failed write
 * never fails the operation: it is logged and counted (`dcs_bff_audit_writes_total{result=
 * "failed"}`).
 */

export type RecordInput = Omit<AuditInput, 'id' | 'time'>;

export interface Recorder {
  /** Never rejects: failures are logged and counted. */
  record(input: RecordInput): Promise<void>;
}

export interface AuditRecorderOptions {
  client: KubeClient;
  log: FastifyBaseLogger;
  metrics: Metrics;
  bounds: AuditBounds;
  /** The Events' reportingInstance: this replica. */
  instance: string;
  /** How many read-modify-write rounds a contended ConfigMap gets. Default 10. */
  attempts?: number;
  now?: () => number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const encode = encodeURIComponent;

/** RFC 3339 with microseconds, the MicroTime format kube-apiserver parses for eventTime. */
const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

const reasonOf = (r: AuditRecord): string => {
  if (r.result === 'applied') return 'Applied';
  if (r.result === 'dry-run') return 'DryRun';
  if (r.result === 'conflict') return 'Conflict';
  if (r.result === 'failed') return r.rolledBack ? 'RolledBack' : 'Failed';
  return 'Refused';
};

export class AuditRecorder implements Recorder {
  readonly #o: AuditRecorderOptions;
  /** One write at a time per ConfigMap in this replica: contention is left to other replicas. */
  readonly #chains = new Map<string, Promise<void>>();

  constructor(options: AuditRecorderOptions) {
    this.#o = options;
  }

  async record(input: RecordInput): Promise<void> {
    const now = this.#o.now?.() ?? Date.now();
    const record = auditRecordOf({
      ...input,
      id: `${now.toString(36)}-${randomUUID().slice(0, 8)}`,
      time: new Date(now).toISOString(),
    });
    // Previews are recorded durably but announce no Event: `kubectl describe` of a pool would
    // otherwise fill with every Preview click, none of which changed anything.
    await Promise.all([
      this.#durable(record),
      record.dryRun ? Promise.resolve() : this.#event(record, now),
    ]).catch((error: unknown) => {
      this.#o.log.warn({ err: error, audit: { record: record.id } }, 'audit record not written');
    });
  }

  #durable(record: AuditRecord): Promise<void> {
    const key = `${record.namespace}/${auditConfigMapName(record.cluster)}`;
    const previous = this.#chains.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.#append(record));
    const tail = next.finally(() => {
      if (this.#chains.get(key) === tail) this.#chains.delete(key);
    });
    this.#chains.set(key, tail);
    return next;
  }

  async #append(record: AuditRecord): Promise<void> {
    const { client, metrics, log, bounds } = this.#o;
    const name = auditConfigMapName(record.cluster);
    const base = `/api/v1/namespaces/${encode(record.namespace)}/configmaps`;
    const attempts = this.#o.attempts ?? 10;
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      try {
        let current: ConfigMapLike | undefined;
        try {
          current = (await client.request('GET', `${base}/${encode(name)}`)).body as ConfigMapLike;
        } catch (error) {
          if (!(error instanceof KubeApiError && error.status === 404)) throw error;
        }
        const { records, dropped } = appendAuditRecords(
          parseAuditRecords(current?.data?.[AUDIT_DATA_KEY]),
          [record],
          this.#o.now?.() ?? Date.now(),
          bounds,
        );
        const data = { [AUDIT_DATA_KEY]: serializeAuditRecords(records) };
        if (current?.metadata?.resourceVersion === undefined) {
          await client.request('POST', base, {
            body: {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: {
                name,
                namespace: record.namespace,
                labels: { [AUDIT_LABEL]: 'true' },
                annotations: { 'dcs.io/audit-retention-ms': String(bounds.retentionMs) },
              },
              data,
            },
          });
        } else {
          // A full update with the version read: another replica's append in between is a 409
          // and this one reads again, so no replica's record is lost.
          await client.request('PUT', `${base}/${encode(name)}`, {
            body: { ...current, data: { ...current.data, ...data } },
          });
        }
        metrics.auditWrites.inc({ sink: 'configmap', result: 'ok' });
        if (dropped > 0) metrics.auditDropped.inc(dropped);
        return;
      } catch (error) {
        lastError = error;
        const retry =
          error instanceof KubeApiError && (error.status === 409 || error.status === 429);
        if (!retry) break;
        await sleep(5 + Math.floor(Math.random() * 25 * (attempt + 1)));
      }
    }
    metrics.auditWrites.inc({ sink: 'configmap', result: 'failed' });
    log.warn(
      { err: lastError, audit: { record: record.id, configMap: `${record.namespace}/${name}` } },
      'audit record not written to its ConfigMap; the operation itself is unaffected',
    );
  }

  async #event(record: AuditRecord, now: number): Promise<void> {
    const { client, metrics, log, instance } = this.#o;
    const kind = (record.target?.kind ?? 'Cluster') as KindName;
    const name = record.target?.name ?? record.cluster;
    if (name === '') return;
    const info = kindTable[kind] as { group: string; version: string } | undefined;
    const apiVersion = info ? (info.group ? `${info.group}/${info.version}` : info.version) : '';
    const note = auditSummary(record);
    try {
      await client.request(
        'POST',
        `/apis/events.k8s.io/v1/namespaces/${encode(record.namespace)}/events`,
        {
          body: {
            apiVersion: 'events.k8s.io/v1',
            kind: 'Event',
            metadata: {
              // As client-go names Events: the object's name and a unique suffix.
              name: `${name}.${now.toString(16)}${randomUUID().slice(0, 4)}`,
              namespace: record.namespace,
              annotations: { [AUDIT_RECORD_ANNOTATION]: record.id },
            },
            eventTime: microTime(now),
            reportingController: AUDIT_REPORTING_CONTROLLER,
            reportingInstance: instance.slice(0, 128),
            action: record.operation.slice(0, 128),
            reason: reasonOf(record),
            type: isAuditFailure(record.result) ? 'Warning' : 'Normal',
            regarding: { apiVersion, kind, name, namespace: record.namespace },
            note: note.length > 1024 ? `${note.slice(0, 1023)}…` : note,
          },
        },
      );
      metrics.auditWrites.inc({ sink: 'event', result: 'ok' });
    } catch (error) {
      metrics.auditWrites.inc({ sink: 'event', result: 'failed' });
      log.warn(
        { err: error, audit: { record: record.id } },
        'audit Event not written; the operation itself is unaffected',
      );
    }
  }
}

interface ConfigMapLike {
  metadata?: { resourceVersion?: string };
  data?: Record<string, string>;
}
