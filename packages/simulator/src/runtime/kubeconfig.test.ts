import { execFile } from 'node:child_process';
import type https from 'node:https';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { buildKubeconfig } from '@dcs/apiserver';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadKubeConfig, simpleKubeConfig } from './kubeconfig';

const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

/** What a kubeconfig applies to a request, without the agent (each side makes its own). */
async function applied(kc: {
  applyToHTTPSOptions(o: https.RequestOptions): Promise<void>;
}): Promise<Record<string, unknown>> {
  const o: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(o);
  const { agent: _, ...rest } = o;
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
}

async function clientNode(text: string): Promise<Record<string, unknown>> {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  return applied(kc);
}

const withUser = (cluster: Record<string, unknown>, user: Record<string, unknown>) =>
  stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443', ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  });

describe('the controllers kubeconfig (issue 14: controllers RSS)', () => {
  it("applies what client-node's applyToHTTPSOptions applies: token, CA, client certificate, server name, skip-verify", async () => {
    const cases = [
      buildKubeconfig({
        server: 'https://127.0.0.1:6443',
        caPem: CA_PEM,
        contexts: [{ name: 'sim-operator', token: 'tok' }],
      }),
      withUser(
        { 'insecure-skip-tls-verify': true, 'tls-server-name': 'kube.local' },
        {
          'client-certificate-data': Buffer.from('CERT').toString('base64'),
          'client-key-data': Buffer.from('KEY').toString('base64'),
        },
      ),
      withUser({ 'certificate-authority-data': Buffer.from(CA_PEM).toString('base64') }, {}),
    ];
    for (const text of cases) {
      const simple = simpleKubeConfig(text, undefined);
      expect(simple).toBeDefined();
      if (!simple) continue;
      expect(await applied(simple)).toEqual(await clientNode(text));
      expect(simple.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
    }
  });

  it('a plain-HTTP server is accepted on loopback only (`pnpm sim --http`), as the BFF accepts it; elsewhere refused as client-node refuses it', async () => {
    for (const server of ['http://127.0.0.1:6443', 'http://localhost:6443', 'http://[::1]:6443']) {
      const text = buildKubeconfig({ server, contexts: [{ name: 'sim-operator', token: 'tok' }] });
      const simple = simpleKubeConfig(text, undefined);
      if (!simple) throw new Error(`not simple: ${server}`);
      expect(await applied(simple), server).toEqual({ headers: { Authorization: 'Bearer tok' } });
    }
    const remote = buildKubeconfig({
      server: 'http://10.0.0.1:6443',
      contexts: [{ name: 'sim-operator', token: 'tok' }],
    });
    const simpleRemote = simpleKubeConfig(remote, undefined);
    if (!simpleRemote) throw new Error('not simple: remote');
    await expect(applied(simpleRemote)).rejects.toThrow('HTTP protocol is not allowed');
    await expect(clientNode(remote)).rejects.toThrow('HTTP protocol is not allowed');
  });

  it('hands every kubeconfig it does not fully understand to client-node (exec, auth-provider, token files, basic auth, proxies, another context)', async () => {
    const others = [
      withUser({}, { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'true' } }),
      withUser({}, { 'auth-provider': { name: 'oidc', config: {} } }),
      withUser({}, { tokenFile: '/var/run/token' }),
      withUser({}, { username: 'a', password: 'b' }),
      withUser({}, { as: 'someone' }),
      withUser({ 'proxy-url': 'http://proxy:3128' }, { token: 't' }),
      'not: [a kubeconfig',
    ];
    for (const text of others) expect(simpleKubeConfig(text, undefined)).toBeUndefined();
    const exec = await loadKubeConfig({ text: others[0] ?? '' });
    expect(exec).toBeInstanceOf(KubeConfig);
    expect(exec.getCurrentUser()?.exec).toBeDefined();
    // A context named on the command line, absent from the file: client-node's answer (no cluster).
    const missing = await loadKubeConfig({ text: others[5] ?? '' }, 'nope');
    expect(missing.getCurrentCluster()).toBeNull();
  });

  it('the controllers and the benchmark load without client-node for the embedded cluster (its generated APIs cost ~115 MiB of RSS)', async () => {
    // A child process whose module loader refuses @kubernetes/client-node: importing the
    // controllers and the benchmark, and loading the embedded cluster's kubeconfig, must succeed.
    const refuse = `data:text/javascript,${encodeURIComponent(
      `export async function resolve(s, c, next) { if (s.startsWith('@kubernetes/client-node')) throw new Error('client-node loaded'); return next(s, c); }`,
    )}`;
    const script = `
      import { register } from 'node:module';
      register(${JSON.stringify(refuse)});
      await import('./src/controllers/start.ts');
      await import('./bench/run.ts');
      const { buildKubeconfig } = await import('@dcs/apiserver');
      const { loadKubeConfig } = await import('./src/runtime/kubeconfig.ts');
      const kc = await loadKubeConfig({ text: buildKubeconfig({ server: 'https://127.0.0.1:1', caPem: 'x', contexts: [{ name: 'a', token: 't' }] }) });
      console.log('loaded', kc.constructor.name);
    `;
    const cwd = fileURLToPath(new URL('../..', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd, timeout: 60_000 },
    );
    expect(stdout).toContain('loaded SimpleKubeConfig');
  }, 90_000);
});
