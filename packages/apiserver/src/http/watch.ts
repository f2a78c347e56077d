/**
 * Watch streams: newline-delimited JSON events on a 200 response, as kube-apiserver sends them.
 * Events come from the store synchronously and in order; each line reuses the stored version's
 * serialized bytes. A filtered watch sees an object that stops matching as DELETED and one that
 * starts matching as ADDED. A resourceVersion older than the history answers an ERROR event
 * (410 Expired) on the 200 stream. Bookmarks carry the latest resourceVersion on an interval.
 */
import type { ServerResponse } from 'node:http';
import type { ResourceType } from '../registry';
import { matchesFields, matchesLabels, type FieldSelector, type LabelSelector } from '../selectors';
import { expired } from '../status';
import type { Store, StoreEvent, Watcher } from '../store/store';
import type { Stored } from '../store/stored';
import { table, type IncludeObject } from '../table';

export interface WatchOptions {
  namespace: string | undefined;
  labels: LabelSelector;
  fields: FieldSelector;
  /** undefined / "0": start with ADDED events for the current state. */
  resourceVersion: string | undefined;
  sendInitialEvents: boolean | undefined;
  allowBookmarks: boolean;
  timeoutMs: number;
  bookmarkIntervalMs: number;
  table: IncludeObject | undefined;
  /** A client that does not read is cut off past this many buffered bytes. */
  maxBufferedBytes?: number;
}

export function serveWatch(
  res: ServerResponse,
  store: Store,
  rt: ResourceType,
  o: WatchOptions,
  onClose: (fn: () => void) => void,
): void {
  const matches = (s: Stored) =>
    (o.namespace === undefined || s.namespace === o.namespace) &&
    matchesLabels(o.labels, s.labels) &&
    matchesFields(o.fields, (f) => s.field(f));

  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();

  let headersSent = false;
  let corked = false;
  const maxBuffered = o.maxBufferedBytes ?? 64 * 1024 * 1024;
  let closed = false;

  const write = (line: string) => {
    if (closed) return;
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(() => {
        corked = false;
        res.uncork();
      });
    }
    res.write(line);
    if (res.writableLength > maxBuffered) finish();
  };

  const lineFor = (type: string, s: Stored): string => {
    if (o.table) {
      const t = table(rt, [s], o.table, { resourceVersion: String(s.rv) }, !headersSent);
      headersSent = true;
      return `{"type":"${type}","object":${JSON.stringify(t)}}\n`;
    }
    return `{"type":"${type}","object":${s.json}}\n`;
  };

  const bookmark = (annotations?: Record<string, string>) => {
    const meta: Record<string, unknown> = {
      resourceVersion: String(store.resourceVersion),
      creationTimestamp: null,
    };
    if (annotations) meta.annotations = annotations;
    write(
      `{"type":"BOOKMARK","object":${JSON.stringify({ kind: rt.kind, apiVersion: rt.apiVersion, metadata: meta })}}\n`,
    );
  };

  const deliver = (ev: StoreEvent) => {
    const now = matches(ev.obj);
    const before = ev.prev ? matches(ev.prev) : false;
    switch (ev.type) {
      case 'ADDED':
        if (now) write(lineFor('ADDED', ev.obj));
        break;
      case 'MODIFIED':
        if (now && before) write(lineFor('MODIFIED', ev.obj));
        else if (now) write(lineFor('ADDED', ev.obj));
        else if (before) write(lineFor('DELETED', ev.obj));
        break;
      case 'DELETED':
        if (before || now) write(lineFor('DELETED', ev.obj));
        break;
    }
  };

  const subscription: { unsubscribe?: () => void } = {};
  let timers: NodeJS.Timeout[] = [];
  function finish(): void {
    if (closed) return;
    closed = true;
    subscription.unsubscribe?.();
    for (const t of timers) clearTimeout(t);
    timers = [];
    res.end();
  }
  onClose(finish);
  res.on('close', finish);

  const rv = o.resourceVersion;
  const fromState = rv === undefined || rv === '' || rv === '0' || o.sendInitialEvents === true;
  if (fromState) {
    for (const s of store.list(rt, o.namespace)) if (matches(s)) write(lineFor('ADDED', s));
    if (o.sendInitialEvents === true && o.allowBookmarks)
      bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else {
    const since = store.eventsSince(rt, Number(rv));
    if (!since) {
      const status = expired(rv, store.compactedRv(rt) + 1).toStatus();
      write(`{"type":"ERROR","object":${JSON.stringify(status)}}\n`);
      finish();
      return;
    }
    for (const ev of since) deliver(ev);
  }
  // Subscribing in the same tick as the replay: no event can fall between them.
  const watcher: Watcher = { deliver };
  subscription.unsubscribe = store.watch(rt, watcher);

  timers.push(setTimeout(finish, o.timeoutMs));
  if (o.allowBookmarks) {
    const tick = () => {
      if (closed) return;
      bookmark();
      timers.push(setTimeout(tick, o.bookmarkIntervalMs));
    };
    timers.push(setTimeout(tick, o.bookmarkIntervalMs));
  }
}
