import type { ViewChange, ViewKind } from '../views/cluster-model';

/**
 * The stream's wire format (ARCHITECTURE.md): Server-Sent Events whose data are view-model changes
 * keyed as REST returns them, `{type: "upsert"|"delete", kind, id, view}`, plus `resync` when the
 * client must reload (first connection, a gap that cannot be replayed, a foreign epoch, a buffer
 * overflow). `id:` is on every event, heartbeats included; heartbeats are named `heartbeat` so
 * that the default handler sees data only.
 */

export type StreamData =
  | { type: 'upsert'; kind: ViewKind; id: string; view: NonNullable<ViewChange['view']> }
  | { type: 'delete'; kind: ViewKind; id: string }
  | { type: 'resync'; reason: ResyncReason };

export type ResyncReason = 'initial' | 'gap' | 'epoch' | 'overflow' | 'unknown-id';

/** One logged change, serialized once and shared by every client. */
export interface LoggedEvent {
  seq: number;
  /** The SSE id: `<epoch>-<seq>`. */
  id: string;
  /** `kind/id`: events with the same key coalesce. */
  key: string;
  /** The complete SSE frame. */
  frame: string;
}

export const frameOf = (id: string, data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ''}id: ${id}\ndata: ${JSON.stringify(data)}\n\n`;

export function dataOf(change: ViewChange): StreamData {
  return change.type === 'upsert' && change.view
    ? { type: 'upsert', kind: change.kind, id: change.id, view: change.view }
    : { type: 'delete', kind: change.kind, id: change.id };
}
