import type { Condition } from '@dcs/domain';

/**
 * When, on the simulated clock, the controllers made each transition they wrote. Timestamps in
 * the API are wall-clock time with whole seconds (see clock.ts), so at `--time-scale 60` one
 * written second spans a simulated minute: reading a duration back from a timestamp would end
 * steps up to a simulated minute early. The controllers remember the simulated instant of every
 * stamp they write (a condition's lastTransitionTime, the drain start) and judge elapsed time
 * from that; a stamp they did not write in this process (another run, the API server's
 * deletionTimestamp) is read on the simulated clock at the latest instant it can stand for,
 * so a step is never cut short, at worst one written second late.
 */

export const conditionPath = (type: string) => `conditions/${type}`;
/** The Machine's status.deletion.nodeDrainStartTime. */
export const DRAIN_START_PATH = 'deletion/nodeDrainStartTime';

/**
 * Paths whose stamp `after` sets or changes relative to `before`: `conditions/<type>` (a
 * condition's lastTransitionTime; a list has one entry per type, the server refuses two) and
 * `deletion/<field>`. At every status write: no map or path is built for an unchanged stamp.
 */
export function changedStamps(before: unknown, after: unknown): [string, string][] {
  const out: [string, string][] = [];
  const a = asStamped(after);
  if (!a) return out;
  const b = asStamped(before);
  for (const c of a.conditions ?? []) {
    if (!c.lastTransitionTime) continue;
    const old = b?.conditions?.find((x) => x.type === c.type)?.lastTransitionTime;
    if (old !== c.lastTransitionTime) out.push([conditionPath(c.type), c.lastTransitionTime]);
  }
  if (a.deletion) {
    for (const [k, v] of Object.entries(a.deletion))
      if (typeof v === 'string' && b?.deletion?.[k] !== v) out.push([`deletion/${k}`, v]);
  }
  return out;
}

interface Stamped {
  conditions?: readonly Condition[];
  deletion?: Record<string, unknown>;
}

const asStamped = (status: unknown): Stamped | undefined =>
  typeof status === 'object' && status !== null ? status : undefined;

interface Mark {
  stamp: string;
  sim: number;
}

/** At most this many marks are kept; the oldest go first (objects long gone). */
const MAX_MARKS = 200_000;

export class Timeline {
  private readonly marks = new Map<string, Mark>();

  /**
   * @param simAt the simulated time at a wall-clock instant (SimClock.simAt)
   * @param wallNow the wall clock (SimClock.wallNow)
   */
  constructor(
    private readonly simAt: (wallMs: number) => number,
    private readonly wallNow: () => number,
  ) {}

  /** Notes that object `uid` wrote `stamp` at `path` at simulated time `sim`. */
  record(uid: string, path: string, stamp: string, sim: number): void {
    const key = `${uid}\u0000${path}`;
    // The same stamp written again (a retry, a stale base) keeps the first instant.
    if (this.marks.get(key)?.stamp === stamp) return;
    this.marks.delete(key);
    this.marks.set(key, { stamp, sim });
    if (this.marks.size > MAX_MARKS) {
      const oldest = this.marks.keys().next().value;
      if (oldest !== undefined) this.marks.delete(oldest);
    }
  }

  /** Records every stamp a status write sets or changes. */
  recordWrite(uid: string, before: unknown, after: unknown, sim: number): void {
    for (const [path, stamp] of changedStamps(before, after)) this.record(uid, path, stamp, sim);
  }

  /** The simulated instant of `stamp` at `path` of object `uid` (undefined without a stamp). */
  at(uid: string | undefined, path: string, stamp: string | undefined): number | undefined {
    if (!stamp) return undefined;
    const mark = uid ? this.marks.get(`${uid}\u0000${path}`) : undefined;
    if (mark?.stamp === stamp) return mark.sim;
    const wall = Date.parse(stamp);
    if (Number.isNaN(wall)) return undefined;
    // A whole-second stamp stands for any instant of that second that has passed.
    return this.simAt(Math.min(wall + 999, this.wallNow()));
  }

  /** When the condition `type` of the object last changed, on the simulated clock. */
  since(
    obj: {
      metadata: { uid?: string | undefined };
      status?: { conditions?: readonly Condition[] | undefined } | undefined;
    },
    type: string,
  ): number | undefined {
    const c = obj.status?.conditions?.find((x) => x.type === type);
    return this.at(obj.metadata.uid, conditionPath(type), c?.lastTransitionTime);
  }
}
