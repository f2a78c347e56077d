/** Knobs of the retry delay after an error. */
export interface BackoffOptions {
  /** First delay. Default 200 ms. */
  readonly initialMs?: number;
  /** Cap: no delay is ever longer. Default 30 s. */
  readonly maxMs?: number;
  /** Growth per consecutive failure. Default 2. */
  readonly factor?: number;
  /**
   * Fraction of the delay that is randomized, 0..1. Default 0.5: a delay lies in
   * [base × (1 − jitter), base], so a fleet of clients that lost the same server does not return
   * in lockstep, and the cap still holds.
   */
  readonly jitter?: number;
  /** A healthy period this long (a connected watch) forgets past failures. Default 60 s. */
  readonly resetAfterMs?: number;
}

/** The delay before retry number `attempt` (0-based), before jitter. Pure. */
export function backoffBase(
  attempt: number,
  initialMs: number,
  factor: number,
  maxMs: number,
): number {
  // Cap the exponent too: factor ** 1000 is Infinity, and Infinity × 0 jitter would be NaN.
  const exponent = Math.min(attempt, 64);
  return Math.min(maxMs, initialMs * factor ** exponent);
}

/**
 * Capped exponential backoff with jitter, reset after a healthy period. It is told when things
 * went well (`healthy`) and asked for the next delay when they did not (`next`).
 */
export class Backoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #factor: number;
  readonly #jitter: number;
  readonly #resetAfterMs: number;
  readonly #random: () => number;
  #attempt = 0;
  #healthySince: number | undefined;

  constructor(options: BackoffOptions = {}, random: () => number = Math.random) {
    this.#initialMs = options.initialMs ?? 200;
    this.#maxMs = options.maxMs ?? 30_000;
    this.#factor = options.factor ?? 2;
    this.#jitter = Math.min(1, Math.max(0, options.jitter ?? 0.5));
    this.#resetAfterMs = options.resetAfterMs ?? 60_000;
    this.#random = random;
  }

  /** Consecutive failures counted so far (0 after a reset). */
  get attempt(): number {
    return this.#attempt;
  }

  /** Marks the start of a healthy period (a connected watch); repeated calls keep the first. */
  healthy(now: number): void {
    this.#healthySince ??= now;
  }

  /** The delay before the next try after a failure at `now`. */
  next(now: number): number {
    if (this.#healthySince !== undefined && now - this.#healthySince >= this.#resetAfterMs) {
      this.#attempt = 0;
    }
    this.#healthySince = undefined;
    const base = backoffBase(this.#attempt, this.#initialMs, this.#factor, this.#maxMs);
    this.#attempt += 1;
    return Math.round(base * (1 - this.#jitter * this.#random()));
  }
}
