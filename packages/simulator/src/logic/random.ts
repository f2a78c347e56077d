/**
 * Seeded randomness. Every random choice of the simulation (name suffixes, durations, the
 * failures drawn by probability) comes from a stream derived from `--random-seed` and a key
 * naming what is being decided, so that a run does not depend on the order in which
 * reconciles happen to interleave: the same seed gives the same names and the same timings.
 */

/** 32-bit FNV-1a over the UTF-16 code units of `s` (Cluster API hashes templates with FNV-32a). */
export function fnv1a32(s: string, hash = 0x811c9dc5): number {
  let h = hash >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number;
  /** A float in [min, max). */
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T | undefined;
  /** `n` characters of Kubernetes' name alphabet (apimachinery's rand.String: no vowels, no 0/1/3). */
  string(n: number): string;
}

/** apimachinery util/rand's alphabet, so generated names look like Cluster API's. */
export const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** mulberry32: small, fast, good enough for simulation choices. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomFrom(next: () => number): Random {
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    between: (min, max) => min + next() * (max - min),
    pick: (items) => (items.length ? items[int(0, items.length - 1)] : undefined),
    string: (n) => {
      let out = '';
      for (let i = 0; i < n; i++) out += NAME_ALPHABET[int(0, NAME_ALPHABET.length - 1)] ?? 'x';
      return out;
    },
  };
}

/** The stream for one decision: the same (seed, keys) always yields the same numbers. */
export function seeded(seed: number, ...keys: (string | number)[]): Random {
  let h = fnv1a32(String(seed));
  for (const k of keys) h = fnv1a32(`\u0000${String(k)}`, h);
  return randomFrom(mulberry32(h));
}
