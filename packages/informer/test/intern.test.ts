import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { internStrings } from '../src/intern';
import type { KubeObject } from '../src/kube-object';

/** `internStrings`: a cache of objects decoded one by one keeps one copy of each repeated string. */

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const text = (i: number) =>
  JSON.stringify({
    apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
    kind: 'KubeadmConfig',
    metadata: { name: `m-${String(i)}`, namespace: 'cpaas-system', resourceVersion: String(i) },
    spec: {
      files: [
        {
          path: '/etc/kubelet.json',
          content: `{"kind":"KubeletConfiguration"${' '.repeat(2000)}}`,
        },
      ],
      preKubeadmCommands: ['while ! ip route | grep -q "default via"; do sleep 1; done'],
    },
  });

/** Heap bytes retained by `n` objects decoded one by one through `transform`. */
function retained(n: number, transform: (o: KubeObject) => KubeObject): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept: KubeObject[] = [];
  for (let i = 0; i < n; i++) kept.push(transform(JSON.parse(text(i)) as KubeObject));
  gc();
  const bytes = process.memoryUsage().heapUsed - before;
  expect(kept).toHaveLength(n);
  return bytes;
}

describe('internStrings', () => {
  it('keeps one copy of a string repeated across decoded objects', () => {
    const n = 2000;
    const plain = retained(n, (o) => o);
    const interned = retained(n, internStrings());
    // 2,000 copies of a 2 KB string are 4 MB; one copy and 2,000 small objects are far less.
    expect(plain).toBeGreaterThan(n * 2000);
    expect(interned).toBeLessThan(plain / 4);
  });

  it('changes no value, and leaves the prototype alone for a __proto__ key', () => {
    const intern = internStrings({ generationSize: 4 });
    for (let i = 0; i < 50; i++) {
      const source = `{"metadata":{"name":"a${String(i % 7)}","labels":{"__proto__":"x","k":"v"}},"list":["p","q",["p",{"__proto__":{"polluted":"yes"}}]],"n":${String(i)},"t":true,"z":null}`;
      const out = intern(JSON.parse(source) as KubeObject);
      expect(out).toEqual(JSON.parse(source));
      const labels = (out.metadata as { labels: object }).labels;
      expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(labels, '__proto__')?.value).toBe('x');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('takes the equal strings of the cached version of the object, not the table', () => {
    // Longer than maxLength: the table never holds it, so one copy for all versions can only
    // come from the cached version beside which each update is walked.
    const big = 'k'.repeat(5000);
    const version = (i: number) =>
      JSON.parse(
        JSON.stringify({
          metadata: { name: 'm', namespace: 'cpaas-system', resourceVersion: String(i) },
          spec: { files: [{ content: big }] },
          status: { phase: i % 2 ? 'Provisioning' : 'Running', message: `step ${String(i)}` },
        }),
      ) as KubeObject;
    const n = 500;
    const decode = (beside: boolean) => {
      const intern = internStrings();
      gc();
      const before = process.memoryUsage().heapUsed;
      const kept: KubeObject[] = [];
      for (let i = 0; i < n; i++) kept.push(intern(version(i), beside ? kept.at(-1) : undefined));
      gc();
      const bytes = process.memoryUsage().heapUsed - before;
      // Every value is the new version's.
      for (let i = 0; i < n; i++) expect(kept[i]).toEqual(version(i));
      return bytes;
    };
    // heapUsed moves by more than V8's other garbage between two gc() calls only roughly: the
    // copies' 2.5 MB measured 2.38–2.6 MB. Half of it is enough to show one copy per version.
    const apart = decode(false);
    const shared = decode(true);
    expect(apart).toBeGreaterThan((n * 5000) / 2);
    expect(shared).toBeLessThan(apart / 4);
  });

  it('walks an update beside its cached version without taking a changed string or touching __proto__', () => {
    const intern = internStrings({ generationSize: 4 });
    const source = (i: number) =>
      `{"metadata":{"name":"a","labels":{"__proto__":"x${String(i)}","k":"value-${String(i % 3)}"}},"list":["pppppppppppp${String(i)}",["qqqqqqqqqqqqq",{"__proto__":{"polluted":"yes"}}]],"n":${String(i)}}`;
    let cached: KubeObject | undefined;
    for (let i = 0; i < 20; i++) {
      const out = intern(JSON.parse(source(i)) as KubeObject, cached);
      expect(out).toEqual(JSON.parse(source(i)));
      const labels = (out.metadata as { labels: object }).labels;
      expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(labels, '__proto__')?.value).toBe(`x${String(i)}`);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      cached = out;
    }
  });

  it('holds at most two generations of strings, whatever the stream', () => {
    const intern = internStrings({ generationSize: 1000 });
    for (let i = 0; i < 50_000; i++)
      intern({ metadata: { name: `unique-${String(i)}`, namespace: 'ns' } });
    expect(intern.tableSize()).toBeLessThanOrEqual(2000);
    expect(intern.tableSize()).toBeGreaterThan(1000);
  });

  it('never interns the values of uniqueKeys: a deleted object leaves nothing of them in the table (issue 25, item 13)', () => {
    const data = (i: number) => `{"apiVersion":"cluster.x-k8s.io/v1beta2","rv":${String(i)}}`;
    type Annotated = KubeObject & {
      metadata: { name: string; annotations: Record<string, string> };
    };
    const object = (i: number): Annotated => ({
      metadata: {
        name: 'worker-machine-1',
        annotations: { 'cluster.x-k8s.io/conversion-data': data(i) },
      },
    });
    const plain = internStrings({ generationSize: 1000 });
    for (let i = 0; i < 100; i++) plain(object(i));
    // Without it, every version's conversion data stays in the table: 100 of them and the name.
    expect(plain.tableSize()).toBe(101);
    const intern = internStrings({
      generationSize: 1000,
      uniqueKeys: ['cluster.x-k8s.io/conversion-data'],
    });
    for (let i = 0; i < 100; i++) {
      const o = intern(object(i)) as Annotated;
      expect(o.metadata.annotations['cluster.x-k8s.io/conversion-data']).toBe(data(i));
    }
    expect(intern.tableSize()).toBe(1);
  });

  it('leaves strings longer than maxLength alone', () => {
    const intern = internStrings({ maxLength: 20, generationSize: 100 });
    intern({ metadata: { name: 'x'.repeat(21), namespace: 'cpaas-system' } });
    expect(intern.tableSize()).toBe(1);
  });

  it('leaves strings of up to 10 characters alone: JSON.parse shares them already', () => {
    const intern = internStrings({ generationSize: 100 });
    const source =
      '{"metadata":{"name":"worker-1","namespace":"default"},"status":{"c":["True","Ready"]}}';
    intern(JSON.parse(source) as KubeObject);
    expect(intern.tableSize()).toBe(0);
    // Why: V8 decodes a short string value as one shared copy (an array slot each, no string),
    // a longer one as a string of its own per occurrence.
    const perItem = (value: string) => {
      const list = JSON.stringify(Array.from({ length: 100_000 }, () => value));
      gc();
      const before = process.memoryUsage().heapUsed;
      const decoded = JSON.parse(list) as string[];
      gc();
      const bytes = (process.memoryUsage().heapUsed - before) / decoded.length;
      expect(decoded).toHaveLength(100_000);
      return bytes;
    };
    expect(perItem('x'.repeat(10))).toBeLessThan(12);
    expect(perItem('x'.repeat(11))).toBeGreaterThan(24);
  });
});
