import type { StreamControlEventName, StreamControlEvents, StreamEvent } from '@dcs/domain';

/**
 * How the hub writes domain's stream events (packages/domain/src/stream-events.ts has the
 * format): each frame is encoded once and shared by every client of a room.
 */

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

/** An SSE frame: a view change or resync (unnamed), or a named control event. */
export function frameOf(id: string, data: StreamEvent): string;
export function frameOf<E extends StreamControlEventName>(
  id: string,
  data: StreamControlEvents[E],
  event: E,
): string;
export function frameOf(id: string, data: unknown, event?: StreamControlEventName): string {
  return `${event ? `event: ${event}\n` : ''}id: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** frameOf for data already serialized (a view change's JSON, made once: changeJson). */
export function frameOfJson(id: string, json: string): string {
  return `id: ${id}\ndata: ${json}\n\n`;
}
