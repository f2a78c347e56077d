import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIT_DATA_KEY, AUDIT_REPORTING_CONTROLLER, parseAuditRecords } from '@dcs/domain';
import { OPERATOR_USER, startEmbeddedCluster, type EmbeddedCluster } from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { buildTestApp, type TestCluster } from './support/embedded';
import { FaultProxy } from './support/fault-proxy';
import { seedDemo } from './support/seed';
import { TestSession } from './support/session';

/**
 * Issue 25 item 2: in local mode the user is who the API server says (a SelfSubjectReview), never
 * the kubeconfig's user *label*. The kubeconfig here names its user `admin`; the server knows it
 * as `sim-operator`. The server goes away (a proxy that refuses connections) while the kubeconfig
 * is rewritten, as a restarted simulator does: the session says the user is unknown, not
 * `admin`; when the server is back (no further rewrite) the console asks again, and the session,
 * the audit record and the Event name the confirmed user.
 */

const NS = 'cpaas-system';
const POOL = `/api/v1/clusters/${NS}/demo/nodepools/demo-md-0`;
const LABEL = 'admin';

interface SessionBody {
  user?: { username: string; groups: string[]; confirmed: boolean };
}

describe('local mode: the identity is only what the API server confirmed (issue 25)', () => {
  let dir: string;
  let cluster: EmbeddedCluster;
  let proxy: FaultProxy;
  let app: FastifyInstance;
  let kubeconfig: string;
  let yaml: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bff-identity-'));
    cluster = await startEmbeddedCluster({
      host: '127.0.0.1',
      port: 0,
      tls: false,
      bookmarkIntervalMs: 500,
      operatorToken: 'operator-token-for-tests',
      viewerToken: 'viewer-token-for-tests',
    });
    await seedDemo(cluster.server.client, { workers: 2 });
    proxy = await FaultProxy.start(`http://127.0.0.1:${String(cluster.server.port)}`);
    const kc = parseYaml(cluster.kubeconfig) as {
      clusters: { cluster: Record<string, unknown> }[];
      users: { name: string }[];
      contexts: { context: { user: string } }[];
    };
    for (const c of kc.clusters) {
      c.cluster.server = proxy.url;
      c.cluster['insecure-skip-tls-verify'] = true;
    }
    // The operator's kubeconfig entry under a label the server does not know.
    for (const u of kc.users) if (u.name === OPERATOR_USER) u.name = LABEL;
    for (const c of kc.contexts) if (c.context.user === OPERATOR_USER) c.context.user = LABEL;
    kubeconfig = join(dir, 'kubeconfig');
    yaml = stringifyYaml(kc);
    await writeFile(kubeconfig, yaml);
    const t: TestCluster = { cluster, kubeconfig, dir, close: () => cluster.close() };
    app = await buildTestApp(t, {
      env: { ALLOW_INSECURE_TLS: 'true', UPSTREAM_DOWN_AFTER: '1s' },
    });
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await proxy.close();
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  });

  const whoIs = async () =>
    (await new TestSession(app).request('GET', '/api/v1/session')).json<SessionBody>().user;

  it('says unknown while the server cannot answer, and asks again when it is back', async () => {
    expect(await whoIs()).toEqual({
      username: OPERATOR_USER,
      groups: expect.arrayContaining(['system:masters']) as unknown,
      confirmed: true,
    });

    // The server goes away; the kubeconfig is rewritten meanwhile (the BFF reloads it).
    proxy.kill();
    await writeFile(kubeconfig, `${yaml}\n# rewritten\n`);
    await expect.poll(async () => (await whoIs())?.confirmed, { timeout: 15_000 }).toBe(false);
    const unknown = await whoIs();
    expect(unknown).toEqual({ username: 'unknown', groups: [], confirmed: false });
    expect(unknown?.username).not.toBe(LABEL);

    // Back, with no further rewrite: the next requests ask again.
    await proxy.revive();
    await expect
      .poll(async () => (await whoIs())?.username, { timeout: 15_000 })
      .toBe(OPERATOR_USER);
    expect((await whoIs())?.confirmed).toBe(true);

    // What is recorded and announced names the confirmed user too.
    await expect
      .poll(async () => (await app.inject('/readyz')).statusCode, { timeout: 15_000 })
      .toBe(200);
    const md = cluster.server.client.get({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      name: 'demo-md-0',
      namespace: NS,
    }) as { metadata: { resourceVersion: string } };
    const s = new TestSession(app);
    await s.start();
    await expect
      .poll(
        async () =>
          (
            await s.request('POST', `${POOL}/scale`, {
              replicas: 3,
              resourceVersion: md.metadata.resourceVersion,
            })
          ).statusCode,
        { timeout: 15_000 },
      )
      .toBe(200);
    const cm = cluster.server.client.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: NS,
      name: 'dcs-console-audit.demo',
    }) as { data?: Record<string, string> } | undefined;
    const users = parseAuditRecords(cm?.data?.[AUDIT_DATA_KEY]).map((r) => r.user);
    expect(users.length).toBeGreaterThan(0);
    expect(new Set(users)).toEqual(new Set([OPERATOR_USER]));
    const events = cluster.server.client.list('events.k8s.io/v1', 'Event', NS) as unknown as {
      reportingController?: string;
      note?: string;
    }[];
    const ours = events.filter((e) => e.reportingController === AUDIT_REPORTING_CONTROLLER);
    expect(ours.length).toBeGreaterThan(0);
    for (const e of ours) expect(e.note?.startsWith(`${OPERATOR_USER} `)).toBe(true);
  }, 90_000);
});
