import { randomBytes } from 'node:crypto';

/**
 * Stream event ids: `<epoch>-<seq>`. The epoch is drawn when the process starts, so an id issued
 * by another replica (or before a restart) is recognised as foreign and answered with `resync`
 * instead of being mistaken for a position in this replica's log.
 */

export const newEpoch = (): string => randomBytes(6).toString('base64url');

export const formatEventId = (epoch: string, seq: number): string => `${epoch}-${seq}`;

export function parseEventId(id: string | undefined): { epoch: string; seq: number } | undefined {
  if (id === undefined) return undefined;
  const dash = id.lastIndexOf('-');
  if (dash <= 0) return undefined;
  const seq = Number(id.slice(dash + 1));
  if (!Number.isSafeInteger(seq) || seq < 0) return undefined;
  return { epoch: id.slice(0, dash), seq };
}
