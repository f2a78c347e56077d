import type { IpPoolView, MachineView, NodePoolView } from '@dcs/domain';

/**
 * The stream's data as the BFF sends it (ARCHITECTURE.md): view-model changes keyed as REST
 * returns them, plus `resync` when the client must reload.
 */
export type ViewKind = 'pool' | 'machine' | 'ipPool';

export type StreamEvent =
  | { type: 'upsert'; kind: 'pool'; id: string; view: NodePoolView }
  | { type: 'upsert'; kind: 'machine'; id: string; view: MachineView }
  | { type: 'upsert'; kind: 'ipPool'; id: string; view: IpPoolView }
  | { type: 'delete'; kind: ViewKind; id: string }
  | { type: 'resync'; reason?: string };

const KINDS = new Set<string>(['pool', 'machine', 'ipPool']);

/** Parses one SSE `data:` payload; anything else (a newer server's event) is ignored. */
export function parseStreamEvent(data: string): StreamEvent | undefined {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const e = v as Record<string, unknown>;
  if (e.type === 'resync')
    return { type: 'resync', ...(typeof e.reason === 'string' ? { reason: e.reason } : {}) };
  if (typeof e.kind !== 'string' || !KINDS.has(e.kind) || typeof e.id !== 'string')
    return undefined;
  if (e.type === 'delete') return { type: 'delete', kind: e.kind as ViewKind, id: e.id };
  if (e.type === 'upsert' && typeof e.view === 'object' && e.view !== null) return v as StreamEvent;
  return undefined;
}
