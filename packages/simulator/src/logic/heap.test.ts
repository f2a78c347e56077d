import { describe, expect, it } from 'vitest';
import { MinHeap } from './heap';

describe('MinHeap', () => {
  it('pops in order of `less`, equal items in no particular order but all of them', () => {
    const heap = new MinHeap<number>((a, b) => a < b);
    const input = [5, 3, 9, 1, 3, 7, 0, 8, 2, 6, 4];
    for (const n of input) heap.push(n);
    expect(heap.size).toBe(input.length);
    expect(heap.peek()).toBe(0);
    const out: number[] = [];
    for (let n = heap.pop(); n !== undefined; n = heap.pop()) out.push(n);
    expect(out).toEqual([...input].sort((a, b) => a - b));
    expect(heap.size).toBe(0);
  });

  it('orders by a composite key, e.g. (at, seq), and clears', () => {
    const heap = new MinHeap<{ at: number; seq: number }>(
      (a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq),
    );
    heap.push({ at: 2, seq: 1 });
    heap.push({ at: 1, seq: 3 });
    heap.push({ at: 1, seq: 2 });
    expect([heap.pop(), heap.pop(), heap.pop()].map((t) => t && `${t.at}/${t.seq}`)).toEqual([
      '1/2',
      '1/3',
      '2/1',
    ]);
    heap.push({ at: 0, seq: 0 });
    heap.clear();
    expect(heap.pop()).toBeUndefined();
  });
});
