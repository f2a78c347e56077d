/**
 * A development instance: registers the test kinds, writes a kubeconfig with an admin and a
 * viewer context, and prints how to point kubectl at it.
 *   pnpm --filter @dcs/apiserver dev [--port N] [--http] [--state FILE]
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startApiServer } from '../src/index';
import { testKinds, widgetHooks } from '../test/support/kinds';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    http: { type: 'boolean', default: false },
    state: { type: 'string' },
  },
});

const server = await startApiServer({
  port: Number(values.port),
  tls: !values.http,
  kinds: testKinds,
  admission: widgetHooks,
  tokens: [
    { token: 'admin-token', user: 'admin', groups: ['system:masters'] },
    { token: 'viewer-token', user: 'viewer' },
  ],
  namespaces: ['cpaas-system'],
  ...(values.state ? { statePath: values.state } : {}),
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

const dir = mkdtempSync(join(tmpdir(), 'apiserver-'));
const file = join(dir, 'kubeconfig');
writeFileSync(
  file,
  server.kubeconfig([
    { name: 'admin', token: 'admin-token', namespace: 'default' },
    { name: 'viewer', token: 'viewer-token', namespace: 'default' },
  ]),
);
console.log(`serving ${server.url}`);
console.log(`export KUBECONFIG=${file}`);
const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
