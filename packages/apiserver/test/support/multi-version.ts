/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- watch lines are arbitrary JSON from the wire; tests assert on them */
/**
 * A toy kind served in two versions, as a CRD with a conversion webhook: `widgets.example.com`
 * v1 (deprecated) names the replica count `spec.size` and the ready count `status.readyCount`,
 * v2 (the storage version) `spec.replicas` and `status.ready`. Its conversion callback counts
 * its calls and can be made to fail.
 */
import type {
  ConversionCallback,
  JSONSchemaProps,
  KindVersion,
  KubeObject,
  MultiVersionKindRegistration,
} from '../../src/index';

function schema(replicas: string, ready: string): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['color'],
        properties: {
          color: { type: 'string', enum: ['red', 'green', 'blue'] },
          [replicas]: { type: 'integer', minimum: 0, default: 1 },
          tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        },
      },
      status: {
        type: 'object',
        properties: { phase: { type: 'string' }, [ready]: { type: 'integer' } },
      },
    },
  };
}

export function v1(overrides: Partial<KindVersion> = {}): KindVersion {
  return {
    name: 'v1',
    served: true,
    storage: false,
    deprecated: true,
    openAPIV3Schema: schema('size', 'readyCount'),
    subresources: { status: true, scale: true },
    scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.readyCount' },
    printerColumns: [
      { name: 'Color', type: 'string', jsonPath: '.spec.color' },
      { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
    ],
    selectableFields: ['spec.size'],
    ...overrides,
  };
}

export function v2(overrides: Partial<KindVersion> = {}): KindVersion {
  return {
    name: 'v2',
    served: true,
    storage: true,
    openAPIV3Schema: schema('replicas', 'ready'),
    subresources: { status: true, scale: true },
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.ready' },
    printerColumns: [
      { name: 'Color', type: 'string', jsonPath: '.spec.color' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    ],
    selectableFields: ['spec.replicas'],
    ...overrides,
  };
}

/** The conversion, with what a test needs to watch it and to break it. */
export interface ToyConversion {
  convert: ConversionCallback;
  /** Every call: how many objects, from which versions, to which. */
  calls: { count: number; from: string[]; to: string }[];
  /** When set, every call throws this message (a webhook that is down). */
  failWith: string | undefined;
  /** When set, the answer is broken this way (a webhook that answers wrongly). */
  corrupt: 'apiVersion' | 'count' | 'uid' | undefined;
}

function rename(obj: Record<string, unknown> | undefined, from: string, to: string): void {
  if (!obj || !Object.hasOwn(obj, from)) return;
  obj[to] = obj[from];
  Reflect.deleteProperty(obj, from);
}

export function toyConversion(): ToyConversion {
  const c: ToyConversion = {
    calls: [],
    failWith: undefined,
    corrupt: undefined,
    convert: (objects, desired) => {
      c.calls.push({ count: objects.length, from: objects.map((o) => o.apiVersion), to: desired });
      if (c.failWith !== undefined) throw new Error(c.failWith);
      const out = objects.map((o): KubeObject => {
        const copy = structuredClone(o);
        const spec = copy.spec as Record<string, unknown> | undefined;
        const status = copy.status as Record<string, unknown> | undefined;
        if (desired === 'example.com/v2') {
          rename(spec, 'size', 'replicas');
          rename(status, 'readyCount', 'ready');
        } else {
          rename(spec, 'replicas', 'size');
          rename(status, 'ready', 'readyCount');
        }
        copy.apiVersion = desired;
        if (c.corrupt === 'apiVersion') copy.apiVersion = 'example.com/v9';
        if (c.corrupt === 'uid') copy.metadata = { ...copy.metadata, uid: 'forged' };
        return copy;
      });
      return c.corrupt === 'count' ? [...out, ...out] : out;
    },
  };
  return c;
}

export function toyKind(
  conversion: ToyConversion,
  versions: KindVersion[] = [v1(), v2()],
): MultiVersionKindRegistration {
  return {
    group: 'example.com',
    kind: 'Widget',
    plural: 'widgets',
    singular: 'widget',
    scope: 'Namespaced',
    shortNames: ['wd'],
    versions,
    convert: conversion.convert,
  };
}

/** A watch stream read as it comes: its events so far, and whether the server ended it. */
export interface OpenWatch {
  headers: Headers;
  events: any[];
  /** Resolves when the stream ends (the server closed it, or `close`). */
  ended: Promise<void>;
  endedByServer: () => boolean;
  /** Resolves once `pred` holds of the events (rejects after `timeoutMs`). */
  until: (pred: (events: any[]) => boolean, timeoutMs?: number) => Promise<void>;
  close: () => void;
}

export async function openWatch(url: string, token: string): Promise<OpenWatch> {
  const ac = new AbortController();
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}` },
    signal: ac.signal,
  });
  const events: any[] = [];
  let byServer = false;
  const waiters: (() => void)[] = [];
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`watch ${url}: no body (${String(res.status)})`);
  const ended = (async () => {
    const dec = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          byServer = true;
          break;
        }
        buf += dec.decode(value, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim()) events.push(JSON.parse(line));
        }
        for (const w of waiters.splice(0)) w();
      }
    } catch {
      // aborted by close()
    }
    for (const w of waiters.splice(0)) w();
  })();
  const until = async (pred: (events: any[]) => boolean, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!pred(events)) {
      if (Date.now() > deadline)
        throw new Error(`watch ${url}: condition not met; events: ${JSON.stringify(events)}`);
      if (byServer) throw new Error(`watch ${url} ended; events: ${JSON.stringify(events)}`);
      await Promise.race([
        new Promise<void>((r) => waiters.push(r)),
        new Promise((r) => setTimeout(r, 100)),
      ]);
    }
  };
  return {
    headers: res.headers,
    events,
    ended,
    endedByServer: () => byServer,
    until,
    close: () => {
      ac.abort();
    },
  };
}
