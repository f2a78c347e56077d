import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';

/**
 * A scripted API server that speaks just enough of the list/watch protocol for one resource:
 * paginated LIST (limit/continue), WATCH with resourceVersion and an event history, bookmarks,
 * 410 Gone (as an HTTP status or an ERROR event), and knobs to break things on purpose.
 * resourceVersions are `rv-<n>`: deliberately not numbers, so a client that parses them fails.
 */

export interface FakeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    resourceVersion: string;
    labels?: Record<string, string>;
  };
  spec?: Record<string, unknown>;
}

export interface RecordedRequest {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: http.IncomingHttpHeaders;
  readonly watch: boolean;
}

export interface FakeResource {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
}

export interface FakeServerOptions {
  readonly resource?: FakeResource;
  readonly tls?: { readonly key: string; readonly cert: string };
  /** Require `Authorization: Bearer <token>`. */
  readonly token?: string;
}

/** What the next watch request gets instead of a normal stream. */
export type WatchScript =
  | { readonly kind: 'status'; readonly code: number; readonly reason?: string }
  | { readonly kind: 'error-event'; readonly code: number; readonly reason: string }
  | { readonly kind: 'end-at-once' }
  /** Never answer (no headers): a server that accepted the connection and hangs. */
  | { readonly kind: 'hang' };

interface OpenWatch {
  readonly res: http.ServerResponse;
  readonly matches: (obj: FakeObject) => boolean;
  readonly timer: NodeJS.Timeout | undefined;
  dropAfter: number | undefined;
}

interface HistoryEntry {
  readonly n: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: FakeObject;
}

interface Snapshot {
  readonly items: FakeObject[];
  readonly rv: string;
}

export const machines: FakeResource = {
  group: 'cluster.x-k8s.io',
  version: 'v1beta1',
  plural: 'machines',
  kind: 'Machine',
};

const rvOf = (n: number): string => `rv-${n}`;
/** The server's own format; NaN for anything else. */
const nOf = (rv: string): number => (/^rv-\d+$/.test(rv) ? Number(rv.slice(3)) : Number.NaN);

export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  readonly resource: FakeResource;
  /** How a too-old resourceVersion on WATCH is answered. */
  goneAs: 'http' | 'event' = 'event';
  readonly #options: FakeServerOptions;
  #server: http.Server;
  #port = 0;
  #n = 1;
  #compactedBelow = 0;
  readonly #objects = new Map<string, FakeObject>();
  readonly #history: HistoryEntry[] = [];
  readonly #watches = new Set<OpenWatch>();
  readonly #sockets = new Set<Socket>();
  readonly #watchScripts: WatchScript[] = [];
  readonly #listFailures: number[] = [];
  readonly #continues = new Map<string, Snapshot & { readonly offset: number }>();
  #dropNextWatchAfter: number | undefined;
  #expireContinuesAfter: number | undefined;
  #uidCounter = 0;

  private constructor(options: FakeServerOptions) {
    this.#options = options;
    this.resource = options.resource ?? machines;
    this.#server = this.#newServer();
  }

  static async start(options: FakeServerOptions = {}): Promise<FakeApiServer> {
    const server = new FakeApiServer(options);
    await server.#listen(0);
    return server;
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `${this.#options.tls ? 'https' : 'http'}://127.0.0.1:${this.#port}`;
  }

  /** The current resourceVersion (of the newest change). */
  get resourceVersion(): string {
    return rvOf(this.#n);
  }

  /** Open watch streams right now. */
  get openWatches(): number {
    return this.#watches.size;
  }

  /** A kubeconfig for this server, built in memory as `loadFromOptions` expects. */
  kubeConfig(token = this.#options.token): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        {
          name: 'fake',
          server: this.url,
          // client-node refuses plain http unless TLS verification is explicitly off.
          skipTLSVerify: !this.#options.tls,
          ...(this.#options.tls
            ? { caData: Buffer.from(this.#options.tls.cert).toString('base64') }
            : {}),
        },
      ],
      users: [{ name: 'tester', ...(token ? { token } : {}) }],
      contexts: [{ name: 'fake', cluster: 'fake', user: 'tester' }],
      currentContext: 'fake',
    });
    return kc;
  }

  watchRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.watch);
  }

  listRequests(): RecordedRequest[] {
    return this.requests.filter((r) => !r.watch);
  }

  // --- state -------------------------------------------------------------------------------

  add(
    name: string,
    init: {
      namespace?: string;
      labels?: Record<string, string>;
      spec?: Record<string, unknown>;
    } = {},
  ): FakeObject {
    const namespace = init.namespace ?? 'default';
    this.#n += 1;
    this.#uidCounter += 1;
    const object: FakeObject = {
      apiVersion: this.#apiVersion(),
      kind: this.resource.kind,
      metadata: {
        name,
        namespace,
        uid: `uid-${this.#uidCounter}`,
        resourceVersion: rvOf(this.#n),
        ...(init.labels ? { labels: init.labels } : {}),
      },
      spec: init.spec ?? {},
    };
    this.#objects.set(`${namespace}/${name}`, object);
    this.#emit('ADDED', object);
    return object;
  }

  /** Adds many objects at once without history entries (a server that starts with data). */
  seed(count: number, prefix = 'm', namespace = 'default'): void {
    for (let i = 0; i < count; i += 1) {
      this.#n += 1;
      this.#uidCounter += 1;
      const name = `${prefix}-${String(i).padStart(5, '0')}`;
      this.#objects.set(`${namespace}/${name}`, {
        apiVersion: this.#apiVersion(),
        kind: this.resource.kind,
        metadata: {
          name,
          namespace,
          uid: `uid-${this.#uidCounter}`,
          resourceVersion: rvOf(this.#n),
        },
        spec: {},
      });
    }
    // Older history is not available: like a server whose watch cache starts now.
    this.#compactedBelow = this.#n;
  }

  update(name: string, spec: Record<string, unknown>, namespace = 'default'): FakeObject {
    const old = this.#objects.get(`${namespace}/${name}`);
    if (!old) throw new Error(`no ${namespace}/${name}`);
    this.#n += 1;
    const object: FakeObject = {
      ...old,
      metadata: { ...old.metadata, resourceVersion: rvOf(this.#n) },
      spec: { ...old.spec, ...spec },
    };
    this.#objects.set(`${namespace}/${name}`, object);
    this.#emit('MODIFIED', object);
    return object;
  }

  remove(name: string, namespace = 'default'): void {
    const old = this.#objects.get(`${namespace}/${name}`);
    if (!old) throw new Error(`no ${namespace}/${name}`);
    this.#n += 1;
    this.#objects.delete(`${namespace}/${name}`);
    this.#emit('DELETED', {
      ...old,
      metadata: { ...old.metadata, resourceVersion: rvOf(this.#n) },
    });
  }

  get(name: string, namespace = 'default'): FakeObject | undefined {
    return this.#objects.get(`${namespace}/${name}`);
  }

  /** Forgets history: a WATCH from any older resourceVersion now gets 410 Gone. */
  compact(): void {
    this.#compactedBelow = this.#n;
    this.#history.length = 0;
  }

  /** Sends a BOOKMARK with the current resourceVersion on every open watch. */
  bookmark(): string {
    const rv = rvOf(this.#n);
    const line = JSON.stringify({
      type: 'BOOKMARK',
      object: {
        apiVersion: this.#apiVersion(),
        kind: this.resource.kind,
        metadata: { resourceVersion: rv },
      },
    });
    for (const watch of this.#watches) watch.res.write(`${line}\n`);
    return rv;
  }

  /**
   * Advances the resourceVersion with a change outside this resource (as on a real cluster, where
   * rvs are shared by all kinds): only a bookmark can tell a watcher about it.
   */
  advance(): string {
    this.#n += 1;
    return rvOf(this.#n);
  }

  // --- scripted failures -------------------------------------------------------------------

  scriptWatch(...scripts: WatchScript[]): void {
    this.#watchScripts.push(...scripts);
  }

  /** The next `count` LIST requests fail with `code` (0: never answered at all). */
  failLists(count: number, code = 500): void {
    for (let i = 0; i < count; i += 1) this.#listFailures.push(code);
  }

  /** The next watch stream is cut (socket destroyed) after `events` events. */
  dropNextWatchAfter(events: number): void {
    this.#dropNextWatchAfter = events;
  }

  /** After `pages` more LIST pages are served, every continue token handed out expires. */
  expireContinuesAfter(pages: number): void {
    this.#expireContinuesAfter = pages;
  }

  /** Cuts every open watch mid-stream (the TCP connection dies). */
  dropWatches(): void {
    for (const watch of [...this.#watches]) this.#closeWatch(watch, 'destroy');
  }

  /** Ends every open watch cleanly, as a server does when `timeoutSeconds` runs out. */
  endWatches(): void {
    for (const watch of [...this.#watches]) this.#closeWatch(watch, 'end');
  }

  async close(): Promise<void> {
    for (const watch of [...this.#watches]) this.#closeWatch(watch, 'destroy');
    for (const socket of this.#sockets) socket.destroy();
    if (!this.#server.listening) return;
    await new Promise<void>((resolve) => {
      this.#server.close(() => {
        resolve();
      });
    });
  }

  /** Goes away and comes back on the same port, keeping its state (like a restarted apiserver). */
  async restart(downMs = 0, whileDown?: () => void): Promise<void> {
    await this.close();
    whileDown?.();
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    this.#server = this.#newServer();
    await this.#listen(this.#port);
  }

  // --- HTTP ---------------------------------------------------------------------------------

  #newServer(): http.Server {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
      this.#handle(req, res);
    };
    const server = this.#options.tls
      ? https.createServer(this.#options.tls, handler)
      : http.createServer(handler);
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    return server;
  }

  async #listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, '127.0.0.1', () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  #apiVersion(): string {
    return this.resource.group === ''
      ? this.resource.version
      : `${this.resource.group}/${this.resource.version}`;
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const watch = url.searchParams.get('watch') === 'true';
    this.requests.push({
      at: Date.now(),
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      watch,
    });
    const token = this.#options.token;
    if (token !== undefined && req.headers.authorization !== `Bearer ${token}`) {
      this.#status(res, 401, 'Unauthorized', 'bad token');
      return;
    }
    const namespace = this.#route(url.pathname);
    if (namespace === null) {
      this.#status(res, 404, 'NotFound', `no route ${url.pathname}`);
      return;
    }
    const matches = this.#filter(namespace, url.searchParams);
    if (watch) this.#watch(url.searchParams, matches, res);
    else this.#list(url.searchParams, matches, res);
  }

  /** The namespace of a collection path ('' for all namespaces), or null when it is not ours. */
  #route(path: string): string | null {
    const { group, version, plural } = this.resource;
    const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    if (path === `${base}/${plural}`) return '';
    const m = new RegExp(`^${base.replaceAll('.', '\\.')}/namespaces/([^/]+)/${plural}$`).exec(
      path,
    );
    return m?.[1] ?? null;
  }

  /** Namespace, `labelSelector` (k=v,…) and `fieldSelector` (metadata.name/namespace=…). */
  #filter(namespace: string, query: URLSearchParams): (obj: FakeObject) => boolean {
    const labels = (query.get('labelSelector') ?? '')
      .split(',')
      .filter(Boolean)
      .map((term) => term.split('=') as [string, string]);
    const fields = (query.get('fieldSelector') ?? '')
      .split(',')
      .filter(Boolean)
      .map((term) => term.split('=') as [string, string]);
    return (obj) =>
      (namespace === '' || obj.metadata.namespace === namespace) &&
      labels.every(([k, v]) => obj.metadata.labels?.[k] === v) &&
      fields.every(([k, v]) =>
        k === 'metadata.name'
          ? obj.metadata.name === v
          : k === 'metadata.namespace'
            ? obj.metadata.namespace === v
            : false,
      );
  }

  #list(
    query: URLSearchParams,
    matches: (obj: FakeObject) => boolean,
    res: http.ServerResponse,
  ): void {
    const failure = this.#listFailures.shift();
    if (failure === 0) return; // hang: the socket stays open until the client gives up
    if (failure !== undefined) {
      this.#status(res, failure, 'InternalError', 'scripted LIST failure');
      return;
    }
    const limit = Number(query.get('limit') ?? '0');
    const token = query.get('continue');
    let snapshot: Snapshot & { offset: number };
    if (token !== null) {
      const found = this.#continues.get(token);
      if (!found) {
        this.#status(res, 410, 'Expired', 'The provided continue parameter is too old');
        return;
      }
      snapshot = found;
    } else {
      const items = [...this.#objects.entries()]
        .filter(([, obj]) => matches(obj))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([, obj]) => obj);
      snapshot = { items, rv: rvOf(this.#n), offset: 0 };
    }
    const end = limit > 0 ? snapshot.offset + limit : snapshot.items.length;
    const page = snapshot.items.slice(snapshot.offset, end);
    let next: string | undefined;
    if (end < snapshot.items.length) {
      next = `c-${Math.random().toString(36).slice(2)}`;
      this.#continues.set(next, { items: snapshot.items, rv: snapshot.rv, offset: end });
    }
    if (this.#expireContinuesAfter !== undefined) {
      this.#expireContinuesAfter -= 1;
      if (this.#expireContinuesAfter <= 0) {
        this.#expireContinuesAfter = undefined;
        this.#continues.clear();
      }
    }
    // Like built-in kinds, list items carry no kind/apiVersion of their own.
    const items = page.map(({ metadata, spec }) => ({ metadata, spec }));
    this.#json(res, 200, {
      apiVersion: this.#apiVersion(),
      kind: `${this.resource.kind}List`,
      metadata: { resourceVersion: snapshot.rv, ...(next ? { continue: next } : {}) },
      items,
    });
  }

  #watch(
    query: URLSearchParams,
    matches: (obj: FakeObject) => boolean,
    res: http.ServerResponse,
  ): void {
    const script = this.#watchScripts.shift();
    if (script?.kind === 'hang') return;
    if (script?.kind === 'status') {
      this.#status(res, script.code, script.reason ?? 'InternalError', 'scripted WATCH failure');
      return;
    }
    const rv = query.get('resourceVersion');
    const from = rv === null ? undefined : nOf(rv);
    const tooOld = from !== undefined && (Number.isNaN(from) || from < this.#compactedBelow);
    if (tooOld && this.goneAs === 'http') {
      this.#status(res, 410, 'Expired', `too old resource version: ${rv ?? ''}`);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    if (tooOld || script?.kind === 'error-event') {
      const code = script?.kind === 'error-event' ? script.code : 410;
      const reason = script?.kind === 'error-event' ? script.reason : 'Expired';
      res.write(
        `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message: `scripted ${code}` } })}\n`,
      );
      // Deliberately left open (and silent): the client must not wait for the server to hang up.
      this.#register(res, () => false, undefined);
      return;
    }
    if (script?.kind === 'end-at-once') {
      res.end();
      return;
    }
    const timeoutSeconds = Number(query.get('timeoutSeconds') ?? '0');
    const timer =
      timeoutSeconds > 0
        ? setTimeout(() => {
            for (const w of this.#watches) if (w.res === res) this.#closeWatch(w, 'end');
          }, timeoutSeconds * 1000)
        : undefined;
    const watch = this.#register(res, matches, timer);
    if (from === undefined) {
      for (const obj of this.#objects.values()) if (matches(obj)) this.#send(watch, 'ADDED', obj);
    } else {
      for (const entry of this.#history) {
        if (entry.n > from && matches(entry.object)) this.#send(watch, entry.type, entry.object);
      }
    }
  }

  #register(
    res: http.ServerResponse,
    matches: (obj: FakeObject) => boolean,
    timer: NodeJS.Timeout | undefined,
  ): OpenWatch {
    const watch: OpenWatch = { res, matches, timer, dropAfter: this.#dropNextWatchAfter };
    this.#dropNextWatchAfter = undefined;
    this.#watches.add(watch);
    res.on('close', () => {
      if (watch.timer) clearTimeout(watch.timer);
      this.#watches.delete(watch);
    });
    return watch;
  }

  #emit(type: HistoryEntry['type'], object: FakeObject): void {
    this.#history.push({ n: this.#n, type, object });
    for (const watch of [...this.#watches])
      if (watch.matches(object)) this.#send(watch, type, object);
  }

  #send(watch: OpenWatch, type: string, object: FakeObject): void {
    if (watch.dropAfter === 0) return;
    watch.res.write(`${JSON.stringify({ type, object })}\n`);
    if (watch.dropAfter !== undefined) {
      watch.dropAfter -= 1;
      // Let the event reach the client first, then cut the connection without a clean end.
      if (watch.dropAfter === 0) {
        setTimeout(() => {
          this.#closeWatch(watch, 'destroy');
        }, 20);
      }
    }
  }

  #closeWatch(watch: OpenWatch, how: 'end' | 'destroy'): void {
    if (watch.timer) clearTimeout(watch.timer);
    this.#watches.delete(watch);
    if (how === 'end') watch.res.end();
    else watch.res.socket?.destroy();
  }

  #status(res: http.ServerResponse, code: number, reason: string, message: string): void {
    this.#json(res, code, {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      code,
      reason,
      message,
    });
  }

  #json(res: http.ServerResponse, code: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(code, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  }
}
