import http from 'node:http';

/** A minimal EventSource over node:http for tests and the benchmark: frames as they arrive. */

export interface SseFrame {
  event: string;
  id?: string;
  data?: unknown;
  receivedAt: number;
}

export interface SseConnection {
  status: number;
  frames: SseFrame[];
  /**
   * Resolves with the first frame that matches: from now on; or already received too if `past`;
   * or, if `past` is a number, from the frame of that index in `frames` on (mark `frames.length`
   * before an action whose frame may come before this is called: a stream that sends at once can
   * deliver it while the test awaits something else).
   */
  waitFor(
    pred: (f: SseFrame) => boolean,
    timeoutMs?: number,
    past?: boolean | number,
  ): Promise<SseFrame>;
  pause(): void;
  resume(): void;
  close(): void;
  closed: Promise<void>;
  onFrame?: (f: SseFrame) => void;
}

export function openSse(
  url: string,
  headers: Record<string, string> = {},
  keep = true,
): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { headers: { accept: 'text/event-stream', ...headers }, agent: false },
      (res) => {
        const frames: SseFrame[] = [];
        const waiters = new Set<{ pred: (f: SseFrame) => boolean; done: (f: SseFrame) => void }>();
        let buffer = '';
        let closedResolve: () => void = () => undefined;
        const closed = new Promise<void>((r) => {
          closedResolve = r;
        });
        const conn: SseConnection = {
          status: res.statusCode ?? 0,
          frames,
          waitFor(pred, timeoutMs = 5000, past = false) {
            const from = past === true ? 0 : past === false ? frames.length : past;
            const hit = frames.slice(from).find(pred);
            if (hit) return Promise.resolve(hit);
            return new Promise((ok, fail) => {
              const w = {
                pred,
                done: (f: SseFrame) => {
                  clearTimeout(timer);
                  waiters.delete(w);
                  ok(f);
                },
              };
              const timer = setTimeout(() => {
                waiters.delete(w);
                fail(new Error(`no matching SSE frame within ${String(timeoutMs)} ms`));
              }, timeoutMs);
              waiters.add(w);
            });
          },
          pause: () => res.pause(),
          resume: () => res.resume(),
          close: () => {
            req.destroy();
          },
          closed,
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let i: number;
          while ((i = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, i);
            buffer = buffer.slice(i + 2);
            const f: SseFrame = { event: 'message', receivedAt: Date.now() };
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith(':') || line.startsWith('retry:')) continue;
              const c = line.indexOf(': ');
              const k = c < 0 ? line : line.slice(0, c);
              const v = c < 0 ? '' : line.slice(c + 2);
              if (k === 'event') f.event = v;
              else if (k === 'id') f.id = v;
              else if (k === 'data') data += v;
            }
            if (data === '' && f.id === undefined) continue;
            if (data !== '') f.data = JSON.parse(data) as unknown;
            if (keep) frames.push(f);
            conn.onFrame?.(f);
            for (const w of [...waiters]) if (w.pred(f)) w.done(f);
          }
        });
        res.on('close', () => {
          closedResolve();
        });
        resolve(conn);
      },
    );
    req.on('error', reject);
  });
}

export const dataOf = (f: SseFrame) =>
  f.data as {
    type?: string;
    kind?: string;
    id?: string;
    reason?: string;
    view?: Record<string, unknown>;
  };
