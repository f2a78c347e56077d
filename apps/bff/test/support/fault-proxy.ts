import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An HTTP proxy between the BFF and the embedded API server (plain HTTP on loopback) that
 * injects the faults a real network and a real kube-apiserver produce, on request:
 * - `dropWatches()`: every open WATCH connection is cut (a load balancer's idle reset);
 * - `goneWatches = n`: the next n WATCH requests are answered like an API server whose history
 *   no longer holds the resourceVersion: a 200 stream carrying one ERROR event, 410 Expired;
 * - `cutLists = n`: the next n LIST responses are cut after their headers and `cutAfterBytes`
 *   bytes of body (a connection dropped mid-list).
 * - `dieAfter(match)`: the next request that matches is passed on, and when the server has
 *   answered it the proxy dies before passing the answer back (the API server died after
 *   applying a write): connections are cut and refused until `revive()`.
 * - `hold = match`: requests that match (judged on method, path and body) wait in `held` until
 *   `releaseAll()` passes them on (a slow API server, without timing).
 * Everything else is passed through unchanged, streams included.
 */
export interface HeldRequest {
  method: string;
  path: string;
  body: string;
}

export class FaultProxy {
  hold: ((req: HeldRequest) => boolean) | undefined;
  readonly held: HeldRequest[] = [];
  goneWatches = 0;
  cutLists = 0;
  cutAfterBytes = 512;
  readonly counts = { lists: 0, watches: 0, gone: 0, cut: 0, dropped: 0 };
  readonly #server: http.Server;
  readonly #watches = new Set<Socket>();
  readonly #target: URL;
  #port = 0;
  #dieAfter: ((req: http.IncomingMessage) => boolean) | undefined;
  readonly #releases: (() => void)[] = [];

  private constructor(target: string) {
    this.#target = new URL(target);
    this.#server = http.createServer((req, res) => {
      this.#handle(req, res);
    });
  }

  static async start(target: string): Promise<FaultProxy> {
    const p = new FaultProxy(target);
    await new Promise<void>((resolve) => p.#server.listen(0, '127.0.0.1', resolve));
    p.#port = (p.#server.address() as AddressInfo).port;
    return p;
  }

  get url(): string {
    return `http://127.0.0.1:${String(this.#port)}`;
  }

  dieAfter(match: (req: http.IncomingMessage) => boolean): void {
    this.#dieAfter = match;
  }

  /** Stops holding and passes every held request on. */
  releaseAll(): void {
    this.hold = undefined;
    this.held.splice(0);
    for (const release of this.#releases.splice(0)) release();
  }

  /** Stops listening and cuts every connection: the API server is gone. */
  kill(): void {
    this.dropWatches();
    this.#server.close();
    this.#server.closeAllConnections();
  }

  async revive(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(this.#port, '127.0.0.1', resolve));
  }

  /** Cuts every open WATCH connection; returns how many. */
  dropWatches(): number {
    const n = this.#watches.size;
    for (const s of this.#watches) s.destroy();
    this.#watches.clear();
    this.counts.dropped += n;
    return n;
  }

  async close(): Promise<void> {
    this.releaseAll();
    this.dropWatches();
    this.#server.closeAllConnections();
    if (this.#server.listening)
      await new Promise<void>((resolve) =>
        this.#server.close(() => {
          resolve();
        }),
      );
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const hold = this.hold;
    if (hold === undefined) {
      this.#forward(req, res);
      return;
    }
    // The body is read first so that `hold` can judge it; then it is passed on as read.
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const held = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        body: body.toString('utf8'),
      };
      const pass = () => {
        this.#forward(req, res, body);
      };
      if (!hold(held)) {
        pass();
        return;
      }
      this.held.push(held);
      this.#releases.push(pass);
    });
  }

  #forward(req: http.IncomingMessage, res: http.ServerResponse, body?: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const watch = ['true', '1'].includes(url.searchParams.get('watch') ?? '');
    const list = !watch && req.method === 'GET' && url.searchParams.has('limit');
    if (watch) this.counts.watches++;
    if (list) this.counts.lists++;
    if (watch && this.goneWatches > 0) {
      this.goneWatches--;
      this.counts.gone++;
      res.writeHead(200, { 'content-type': 'application/json' });
      const status = {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        message: 'too old resource version',
        reason: 'Expired',
        code: 410,
      };
      res.end(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
      return;
    }
    const cut = list && this.cutLists > 0;
    if (cut) this.cutLists--;
    const die = this.#dieAfter?.(req) === true;
    if (die) this.#dieAfter = undefined;
    const upstream = http.request(
      {
        host: this.#target.hostname,
        port: this.#target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (up) => {
        if (die) {
          // The write reached the server and was answered; the answer never comes back.
          up.resume();
          up.on('end', () => {
            req.socket.destroy();
            this.kill();
          });
          return;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        if (watch) {
          const socket = req.socket;
          this.#watches.add(socket);
          socket.once('close', () => this.#watches.delete(socket));
        }
        if (!cut) {
          up.pipe(res);
          return;
        }
        this.counts.cut++;
        let sent = 0;
        up.on('data', (chunk: Buffer) => {
          if (sent >= this.cutAfterBytes) return;
          const part = chunk.subarray(0, this.cutAfterBytes - sent);
          sent += part.length;
          res.write(part);
          if (sent >= this.cutAfterBytes) {
            up.destroy();
            req.socket.destroy();
          }
        });
        up.on('end', () => req.socket.destroy());
      },
    );
    upstream.on('error', () => req.socket.destroy());
    res.on('close', () => upstream.destroy());
    if (body === undefined) req.pipe(upstream);
    else upstream.end(body);
  }
}
