import { MinHeap } from './heap';

/**
 * Simulated time. Every duration the controllers wait (a VM booting, a node draining, a requeue)
 * is measured on this clock, never on the wall clock, so that `--time-scale X` runs the same
 * story X times faster and a test can jump over minutes with `advance()`.
 *
 * Timestamps written to the API are the wall clock's (`stamp()`), as a real cluster's are: the
 * simulated clock runs ahead of it at X > 1, and kubectl and the console compute ages as wall
 * time minus timestamp. `simAt()` maps a wall-clock instant (a timestamp read back, or one the API
 * server set) to the simulated clock, so that elapsed-time judgements stay on simulated time.
 */

export type CancelTimer = () => void;

export interface SimClock {
  /** Simulated milliseconds since the epoch. */
  now(): number;
  /** Real (wall-clock) milliseconds since the epoch. */
  wallNow(): number;
  /** The timestamp to write now: the wall clock as Kubernetes writes it (RFC 3339, whole seconds). */
  stamp(): string;
  /** The simulated time at the wall-clock instant `wallMs` (monotonic in wallMs). */
  simAt(wallMs: number): number;
  /** Simulated seconds per real second; 0 means time moves only through `advance()`. */
  readonly timeScale: number;
  /** Calls `fn` once `delayMs` simulated milliseconds have passed. */
  setTimer(delayMs: number, fn: () => void): CancelTimer;
  /** Resolves after `delayMs` simulated milliseconds. */
  sleep(delayMs: number): Promise<void>;
  /** Jumps forward by `ms` simulated milliseconds, firing every timer due on the way, in order. */
  advance(ms: number): Promise<void>;
  /** Cancels every timer; the clock keeps telling time. */
  stop(): void;
  /** How late (real ms) timers fired since the last call, and how many are pending. */
  stats?(): { fired: number; avgLateMs: number; maxLateMs: number; pending: number };
}

export interface ClockOptions {
  /** Simulated start time (epoch ms); defaults to the real time at creation. */
  start?: number;
  /** Simulated seconds per real second (default 1); 0 for a manual clock. */
  timeScale?: number;
  /** Real time source, for tests of the clock itself. */
  realNow?: () => number;
}

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * The timers by (at, seq): timers due at the same instant fire in creation order. Cancelled
 * timers stay in the heap and are skipped when they reach the top.
 */
class TimerHeap {
  private readonly heap = new MinHeap<Timer>(
    (a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq),
  );

  peek(): Timer | undefined {
    this.dropCancelled();
    return this.heap.peek();
  }

  push(t: Timer): void {
    this.heap.push(t);
  }

  pop(): Timer | undefined {
    this.dropCancelled();
    return this.heap.pop();
  }

  clear(): void {
    this.heap.clear();
  }

  get size(): number {
    return this.heap.size;
  }

  private dropCancelled(): void {
    while (this.heap.peek()?.cancelled) this.heap.pop();
  }
}

/** Real timers cannot wait longer than this (Node's setTimeout limit). */
const MAX_REAL_DELAY = 2 ** 31 - 1;

/**
 * The last second formatted, and its text: every reconcile stamps the time (a Date, its ISO text
 * and a replace, 0.7 % of the controllers' CPU at 5,000 machines), thousands of times per second.
 */
let lastSecond = Number.NaN;
let lastText = '';

export function toISO(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastText;
}

class ScaledClock implements SimClock {
  readonly timeScale: number;
  private readonly realNow: () => number;
  private readonly realStart: number;
  private readonly simStart: number;
  /** Simulated time added by advance(), and, for a manual clock, the whole of it. */
  private offset = 0;
  private readonly timers = new TimerHeap();
  private seq = 0;
  /** (real time, offset) each time advance() moved the offset, in order: simAt() reads them. */
  private readonly jumps: { real: number; offset: number }[] = [];
  private realTimer: ReturnType<typeof setTimeout> | undefined;
  private armedFor: number | undefined;
  private firing = false;
  private fired = 0;
  private lateSum = 0;
  private lateMax = 0;

  constructor(options: ClockOptions) {
    this.timeScale = options.timeScale ?? 1;
    if (!(this.timeScale >= 0) || !Number.isFinite(this.timeScale)) {
      throw new Error(`time scale must be a finite number ≥ 0, got ${String(options.timeScale)}`);
    }
    this.realNow = options.realNow ?? Date.now;
    this.realStart = this.realNow();
    this.simStart = options.start ?? this.realStart;
  }

  now(): number {
    const elapsed = this.timeScale === 0 ? 0 : (this.realNow() - this.realStart) * this.timeScale;
    return this.simStart + elapsed + this.offset;
  }

  wallNow(): number {
    return this.realNow();
  }

  stamp(): string {
    return toISO(this.realNow());
  }

  simAt(wallMs: number): number {
    const real = wallMs - this.realStart;
    // Before the clock started, a manual clock counts wall time as it is.
    const scale = real < 0 ? Math.max(1, this.timeScale) : this.timeScale;
    return this.simStart + real * scale + this.offsetAt(wallMs);
  }

  /** The offset advance() had added by the real instant `wallMs`. */
  private offsetAt(wallMs: number): number {
    const j = this.jumps;
    let lo = 0;
    let hi = j.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((j[mid]?.real ?? 0) <= wallMs) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : (j[lo - 1]?.offset ?? 0);
  }

  private addOffset(ms: number): void {
    if (ms <= 0) return;
    this.offset += ms;
    const real = this.realNow();
    const last = this.jumps[this.jumps.length - 1];
    if (last?.real === real) last.offset = this.offset;
    else this.jumps.push({ real, offset: this.offset });
  }

  setTimer(delayMs: number, fn: () => void): CancelTimer {
    const timer: Timer = {
      at: this.now() + Math.max(0, delayMs),
      seq: this.seq++,
      fn,
      cancelled: false,
    };
    this.timers.push(timer);
    this.arm();
    return () => {
      timer.cancelled = true;
    };
  }

  sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(delayMs, resolve));
  }

  async advance(ms: number): Promise<void> {
    const target = this.now() + Math.max(0, ms);
    // Step from timer to timer so that a timer set by a callback (a requeue 5 s later) fires
    // within the same advance when it falls before the target; yield between steps so the
    // promise chains a callback started can set those timers.
    for (;;) {
      await yieldToEventLoop();
      const next = this.timers.peek();
      if (!next || next.at > target) break;
      this.addOffset(next.at - this.now());
      this.fireDue();
    }
    this.addOffset(target - this.now());
    this.fireDue();
    await yieldToEventLoop();
  }

  stop(): void {
    this.timers.clear();
    this.disarm();
  }

  stats(): { fired: number; avgLateMs: number; maxLateMs: number; pending: number } {
    const r = {
      fired: this.fired,
      avgLateMs: Math.round(this.lateSum / Math.max(1, this.fired)),
      maxLateMs: Math.round(this.lateMax),
      pending: this.timers.size,
    };
    this.fired = 0;
    this.lateSum = 0;
    this.lateMax = 0;
    return r;
  }

  private fireDue(): void {
    if (this.firing) return;
    this.firing = true;
    try {
      const now = this.now();
      for (let t = this.timers.peek(); t && t.at <= now; t = this.timers.peek()) {
        this.timers.pop();
        if (this.timeScale > 0) {
          const late = (this.now() - t.at) / this.timeScale;
          this.fired++;
          this.lateSum += late;
          if (late > this.lateMax) this.lateMax = late;
        }
        try {
          t.fn();
        } catch (err) {
          // A timer callback must not stop the others; report it the way Node would.
          queueMicrotask(() => {
            throw err;
          });
        }
      }
    } finally {
      this.firing = false;
    }
    this.arm();
  }

  /** Keeps one real timer armed for the earliest simulated timer (scaled clocks only). */
  private arm(): void {
    if (this.timeScale === 0) return;
    const next = this.timers.peek();
    if (!next) {
      this.disarm();
      return;
    }
    if (this.armedFor === next.at && this.realTimer) return;
    this.disarm();
    const realDelay = Math.min(
      MAX_REAL_DELAY,
      Math.max(0, (next.at - this.now()) / this.timeScale),
    );
    this.armedFor = next.at;
    this.realTimer = setTimeout(() => {
      this.realTimer = undefined;
      this.armedFor = undefined;
      this.fireDue();
    }, Math.ceil(realDelay));
    // A pending simulated timer must not keep a CLI or a test process alive on its own.
    this.realTimer.unref();
  }

  private disarm(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
    this.armedFor = undefined;
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A clock running `timeScale` simulated seconds per real second (0: manual, moved by advance()). */
export function createClock(options: ClockOptions = {}): SimClock {
  return new ScaledClock(options);
}
