import http from 'node:http';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

/**
 * Benchmark child 3: the load. `--mode http`: GET a URL at a fixed rate (open loop: requests are
 * sent on schedule whether or not earlier ones have answered) and report latency percentiles.
 * `--mode sse`: open `--clients` streams, report when all are open, then measure for every
 * client the delay from each stamped API-server event (`bench:<seq>:<ms>`) to its arrival, until
 * told `{"cmd":"report"}`. JSON lines on stdout.
 */

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'http' },
    url: { type: 'string' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '1' },
  },
});
const url = values.url ?? '';
const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

export function percentiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) =>
    s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
  return { count: s.length, p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1] ?? 0 };
}

async function httpLoad(): Promise<void> {
  const rate = Number(values.rate);
  const total = Math.round(rate * Number(values.seconds));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const t0 = performance.now();
  const pending: Promise<void>[] = [];
  for (let k = 0; k < total; k++) {
    const due = t0 + (k * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      new Promise<void>((resolve) => {
        const sent = performance.now();
        const req = http.get(url, { agent }, (res) => {
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - sent);
            else errors++;
            resolve();
          });
        });
        req.on('error', () => {
          errors++;
          resolve();
        });
      }),
    );
  }
  await Promise.all(pending);
  const seconds = (performance.now() - t0) / 1000;
  out({
    http: {
      ...percentiles(latencies),
      errors,
      achievedRate: latencies.length / seconds,
      bytesPerResponse: Math.round(bytes / Math.max(1, latencies.length)),
    },
  });
  agent.destroy();
}

async function sseLoad(): Promise<void> {
  const n = Number(values.clients);
  const latencies: number[] = [];
  let frames = 0;
  let resyncs = 0;
  let open = 0;
  const sockets: http.ClientRequest[] = [];
  // Only a complete stamp (its closing quote seen): one split across chunks waits for the rest.
  const STAMP = /bench:(\d+):(\d+)"/g;
  await new Promise<void>((allOpen) => {
    for (let i = 0; i < n; i++) {
      // Events of one refresh arrive in view order, not stamp order: remember each seq seen.
      const seen = new Set<number>();
      let tail = '';
      let first = true;
      const req = http.get(
        url,
        { agent: false, headers: { accept: 'text/event-stream' } },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            const now = Date.now();
            if (first) {
              first = false;
              if (++open === n) allOpen();
            }
            const text = tail + chunk;
            frames += (chunk.match(/\n\n/g) ?? []).length;
            if (chunk.includes('"resync"')) resyncs++;
            STAMP.lastIndex = 0;
            let m: RegExpExecArray | null;
            while ((m = STAMP.exec(text)) !== null) {
              const seq = Number(m[1]);
              if (!seen.has(seq)) {
                seen.add(seq);
                latencies.push(now - Number(m[2]));
              }
            }
            tail = text.slice(-48);
          });
        },
      );
      req.on('error', () => undefined);
      sockets.push(req);
    }
  });
  out({ connected: open });
  const commands = createInterface({ input: process.stdin });
  commands.on('line', (line) => {
    const cmd = JSON.parse(line) as { cmd: string };
    if (cmd.cmd === 'reset') latencies.length = 0;
    if (cmd.cmd === 'report') {
      out({ sse: { ...percentiles(latencies), frames, resyncs: resyncs - n, clients: open } });
      for (const s of sockets) s.destroy();
      process.exit(0);
    }
  });
}

if (values.mode === 'sse') await sseLoad();
else await httpLoad();
