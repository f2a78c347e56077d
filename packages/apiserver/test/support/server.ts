/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- responses are arbitrary JSON from the wire; tests assert on them */
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../src/index';
import { testKinds, widgetHooks } from './kinds';

export const ADMIN = 'admin-token';
export const VIEWER = 'viewer-token';
export const NOBODY = 'nobody-token';

export interface TestServer {
  server: ApiServer;
  /** A raw request as a client sends it; JSON bodies unless a content type says otherwise. */
  api: (
    method: string,
    path: string,
    opts?: RequestOpts,
  ) => Promise<{ status: number; body: any; headers: Headers; text: string }>;
}

export interface RequestOpts {
  body?: unknown;
  token?: string | null;
  contentType?: string;
  accept?: string;
}

export async function startTestServer(opts: ApiServerOptions = {}): Promise<TestServer> {
  const server = await startApiServer({
    tls: false,
    kinds: testKinds,
    admission: widgetHooks,
    tokens: [
      { token: ADMIN, user: 'admin', groups: ['system:masters'] },
      { token: VIEWER, user: 'viewer' },
      { token: NOBODY, user: 'nobody' },
    ],
    namespaces: ['cpaas-system'],
    bookmarkIntervalMs: 200,
    ...opts,
  });
  await server.client
    .create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'viewer-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'viewer' }],
    })
    .catch(() => undefined);
  const api: TestServer['api'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = {};
    const token = o.token === undefined ? ADMIN : o.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (o.accept) headers.accept = o.accept;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      headers['content-type'] = o.contentType ?? 'application/json';
    }
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed as any, headers: res.headers, text };
  };
  return { server, api };
}

export function widget(
  name: string,
  spec: Record<string, unknown> = { color: 'red' },
  meta: Record<string, unknown> = {},
) {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, ...meta }, spec };
}

export const W = '/apis/example.com/v1/namespaces/default/widgets';

/** Reads watch events from a streaming response until `until` says stop (or timeout). */
export async function readWatch(
  url: string,
  token: string,
  until: (events: any[]) => boolean,
  timeoutMs = 5000,
  accept?: string,
): Promise<{ status: number; events: any[] }> {
  const ac = new AbortController();
  const timer = setTimeout(() => {
    ac.abort();
  }, timeoutMs);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (accept) headers.accept = accept;
  const events: any[] = [];
  let status = 0;
  try {
    const res = await fetch(url, { headers, signal: ac.signal });
    status = res.status;
    const reader = res.body?.getReader();
    if (!reader) return { status, events };
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) events.push(JSON.parse(line));
      }
      if (until(events)) break;
    }
    await reader.cancel().catch(() => undefined);
  } catch (e) {
    if (!(e instanceof Error && e.name === 'AbortError')) throw e;
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
  return { status, events };
}

/**
 * A count once it has settled: the same value over `quietMs` (polled), within `timeoutMs`. A
 * baseline read at once may still include what an earlier test is closing (a watch whose client
 * has gone, not yet noticed by the server): a delta asserted against it then fails on a loaded
 * machine. Throws when the count never holds still.
 */
export async function settledCount(
  read: () => number,
  { quietMs = 1_500, timeoutMs = 30_000, everyMs = 100 } = {},
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let value = read();
  let since = Date.now();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, everyMs));
    const now = read();
    if (now !== value) {
      value = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return value;
  }
  throw new Error(
    `the count did not settle within ${String(timeoutMs)} ms (last ${String(value)})`,
  );
}
