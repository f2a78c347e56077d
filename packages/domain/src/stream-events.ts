import type { IpPoolView } from './views/ippool';
import type { MachineView } from './views/machine';
import type { NodePoolView } from './views/nodepool';

/**
 * The live stream's wire format (ARCHITECTURE.md), shared by the BFF that writes it and the
 * browser that reads it: Server-Sent Events whose data are view-model changes keyed as REST
 * returns them, `{type: "upsert"|"delete", kind, id, view}`, plus `resync` when the client must
 * reload (first connection, a gap that cannot be replayed, a foreign epoch, a buffer overflow).
 * Every event has an `id:`. Control events are named (`event: heartbeat|expired|shutdown`), so
 * that the default `message` handler sees view changes and resyncs only.
 */

/** The view models a stream carries, by the `kind` of its events. */
export interface StreamViews {
  pool: NodePoolView;
  machine: MachineView;
  ipPool: IpPoolView;
}

export type StreamViewKind = keyof StreamViews;

export const STREAM_VIEW_KINDS: readonly StreamViewKind[] = ['pool', 'machine', 'ipPool'];

export type StreamUpsert = {
  [K in StreamViewKind]: { type: 'upsert'; kind: K; id: string; view: StreamViews[K] };
}[StreamViewKind];

export interface StreamDelete {
  type: 'delete';
  kind: StreamViewKind;
  id: string;
}

/**
 * Why the client must reload what it shows. `reconnected`: the BFF's connection to the
 * management cluster is back after an outage; what the page fetched meanwhile may be stale.
 */
export type ResyncReason = 'initial' | 'gap' | 'epoch' | 'overflow' | 'unknown-id' | 'reconnected';

export const RESYNC_REASONS: readonly ResyncReason[] = [
  'initial',
  'gap',
  'epoch',
  'overflow',
  'unknown-id',
  'reconnected',
];

/**
 * The BFF's view of the management cluster's API server, for "disconnected since …": sent as
 * the named event `upstream` when it changes and to every new stream, and carried by heartbeats.
 * `disconnected` once watches have been failing past the BFF's threshold (`UPSTREAM_DOWN_AFTER`);
 * the page then shows cached data, no longer kept current.
 */
export type UpstreamStatus =
  | { state: 'connected' }
  | {
      state: 'disconnected';
      /** ISO time the failures began. */
      since: string;
      /** What the last failure said, for support staff (English, from the server or network). */
      reason: string;
    };

export interface StreamResync {
  type: 'resync';
  /** Always sent; absent only when a newer server gave a reason this version does not know. */
  reason?: ResyncReason;
}

/** The data of an unnamed (`message`) event. */
export type StreamEvent = StreamUpsert | StreamDelete | StreamResync;

/**
 * Named events: liveness, the management cluster's reachability, the end of the user's session,
 * the server's graceful shutdown.
 */
export interface StreamControlEvents {
  heartbeat: { at: string; upstream?: UpstreamStatus };
  upstream: { type: 'upstream'; status: UpstreamStatus };
  expired: { type: 'expired' };
  shutdown: { type: 'shutdown' };
}

export type StreamControlEventName = keyof StreamControlEvents;

const isViewKind = (v: unknown): v is StreamViewKind =>
  typeof v === 'string' && (STREAM_VIEW_KINDS as readonly string[]).includes(v);

const isResyncReason = (v: unknown): v is ResyncReason =>
  typeof v === 'string' && (RESYNC_REASONS as readonly string[]).includes(v);

/** An event's `data:` as a JSON object; undefined for anything else. */
function jsonObject(data: string): Record<string, unknown> | undefined {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return undefined;
  }
  return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
}

/**
 * One `data:` payload of a `message` event, checked by its envelope (the view inside is the
 * server's own view model, not re-validated: thousands arrive a second). Anything else, such as
 * a newer server's event, is undefined and ignored.
 */
export function parseStreamEvent(data: string): StreamEvent | undefined {
  const e = jsonObject(data);
  if (e === undefined) return undefined;
  if (e.type === 'resync') {
    return { type: 'resync', ...(isResyncReason(e.reason) ? { reason: e.reason } : {}) };
  }
  if (!isViewKind(e.kind) || typeof e.id !== 'string') return undefined;
  if (e.type === 'delete') return { type: 'delete', kind: e.kind, id: e.id };
  if (e.type === 'upsert' && typeof e.view === 'object' && e.view !== null) {
    return e as unknown as StreamUpsert;
  }
  return undefined;
}

/** The upstream status in a named event's data (`upstream`, or a heartbeat's `upstream`). */
export function parseUpstreamStatus(data: string): UpstreamStatus | undefined {
  const o = jsonObject(data);
  if (o === undefined) return undefined;
  const s = o.type === 'upstream' ? o.status : o.upstream;
  if (typeof s !== 'object' || s === null) return undefined;
  const st = s as Record<string, unknown>;
  if (st.state === 'connected') return { state: 'connected' };
  if (st.state === 'disconnected' && typeof st.since === 'string') {
    return {
      state: 'disconnected',
      since: st.since,
      reason: typeof st.reason === 'string' ? st.reason : '',
    };
  }
  return undefined;
}
