/** A binary min-heap by `less`: the work queue's oldest keys and the clock's next timers. */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = a[p];
      if (parent === undefined || !this.less(item, parent)) break;
      a[i] = parent;
      i = p;
    }
    a[i] = item;
  }

  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (last === undefined || a.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = last;
      let at = i;
      const lv = a[l];
      const rv = a[r];
      if (lv !== undefined && this.less(lv, smallest)) {
        smallest = lv;
        at = l;
      }
      if (rv !== undefined && this.less(rv, smallest)) {
        smallest = rv;
        at = r;
      }
      if (at === i) break;
      a[i] = smallest;
      i = at;
    }
    a[i] = last;
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}
