/**
 * Machines' diagnosis due times, and their minimum: when the cluster's views next change by the
 * clock alone. The minimum is read on every refresh, so it is kept in a heap instead of scanning
 * every machine's time (issue 28): a time set or removed costs O(log n), and a read pops only the
 * heap's entries that were replaced or removed since.
 */
export class DueTimes {
  readonly #at = new Map<string, number>();
  /** Min-heap by time; entries no longer in #at (replaced, removed) are dropped when on top. */
  #heap: { t: number; name: string }[] = [];

  get size(): number {
    return this.#at.size;
  }

  /** The earliest due time, undefined when none is. */
  get min(): number | undefined {
    const heap = this.#heap;
    for (let top = heap[0]; top; top = heap[0]) {
      if (this.#at.get(top.name) === top.t) return top.t;
      this.#pop();
    }
    return undefined;
  }

  get(name: string): number | undefined {
    return this.#at.get(name);
  }

  set(name: string, t: number): void {
    if (this.#at.get(name) === t) return;
    this.#at.set(name, t);
    this.#push({ t, name });
    // Stale entries pile up as times move: rebuilt from the live ones when they outnumber them.
    if (this.#heap.length > 2 * this.#at.size + 32) this.#rebuild();
  }

  delete(name: string): boolean {
    return this.#at.delete(name);
  }

  clear(): void {
    this.#at.clear();
    this.#heap = [];
  }

  #rebuild(): void {
    this.#heap = [];
    for (const [name, t] of this.#at) this.#push({ t, name });
  }

  #push(e: { t: number; name: string }): void {
    const heap = this.#heap;
    heap.push(e);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = heap[p];
      if (!parent || parent.t <= e.t) break;
      heap[i] = parent;
      i = p;
    }
    heap[i] = e;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (!last || heap.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      let mt = last.t;
      const left = heap[l];
      const right = heap[r];
      if (left && left.t < mt) {
        m = l;
        mt = left.t;
      }
      if (right && right.t < mt) m = r;
      if (m === i) break;
      heap[i] = heap[m] as { t: number; name: string };
      i = m;
    }
    heap[i] = last;
  }
}
