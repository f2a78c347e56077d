import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';
import { Informer } from '../src/informer';
import {
  fast,
  machineSpec,
  onCleanup,
  record,
  startInformer,
  startServer,
} from './support/harness';

const fixture = (name: string): string =>
  readFileSync(new URL(`fixtures/tls/${name}`, import.meta.url), 'utf8');
const tls = { key: fixture('key.pem'), cert: fixture('cert.pem') };

describe('Informer: kubeconfig auth and TLS', () => {
  it('lists and watches over https with the kubeconfig’s CA and bearer token', async () => {
    const server = await startServer({ tls, token: 'sekret' });
    server.add('a');
    const informer = startInformer(server);
    const log = record(informer);
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.add('b');
    await expect.poll(() => log).toEqual(['add a@rv-2', 'add b@rv-3']);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(
      server.requests.map(() => 'Bearer sekret'),
    );
  });

  it('reports 401 for a wrong token and keeps retrying', async () => {
    const server = await startServer({ tls, token: 'sekret' });
    const onError = vi.fn();
    const informer = new Informer(server.kubeConfig('wrong'), machineSpec, {
      ...fast,
      onError,
    }).start();
    onCleanup(() => informer.stop());
    await expect.poll(() => onError.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ statusCode: 401, reason: 'Unauthorized' });
    expect(onError.mock.calls[0]?.[1]).toMatchObject({ phase: 'list' });
    expect(informer.hasSynced).toBe(false);
  });

  it('refuses a server whose certificate the kubeconfig does not trust', async () => {
    const server = await startServer({ tls });
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: server.url, skipTLSVerify: false }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const onError = vi.fn();
    const informer = new Informer(kc, machineSpec, { ...fast, onError }).start();
    onCleanup(() => informer.stop());
    await expect.poll(() => onError.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(String(onError.mock.calls[0]?.[0])).toMatch(/certificate/i);
    expect(server.requests).toHaveLength(0);
  });
});
