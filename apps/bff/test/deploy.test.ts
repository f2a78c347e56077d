import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { openConnection } from '../src/kube/connection';
import { RestClient } from '../src/kube/rest';
import { startTestCluster, type TestCluster } from './support/embedded';

/**
 * The manifests of apps/bff/deploy: least privilege, ≥ 2 replicas, and accepted by a server dry
 * run against the embedded API server, through its HTTP API and, when kubectl is on the PATH,
 * with `kubectl apply --dry-run=server` itself. The embedded server's Pod template schema is
 * abridged: a real cluster still has the last word on the Pod spec.
 */

function findKubectl(): string | undefined {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return 'kubectl';
  } catch {
    return undefined;
  }
}
const kubectl = findKubectl();
if (!kubectl) console.log('kubectl dry-run test skipped: no kubectl binary on PATH');

interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [k: string]: unknown;
}

const dir = join(import.meta.dirname, '..', 'deploy');
const docs: Doc[] = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) =>
    parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as Doc),
  );
const byKind = (kind: string) => docs.filter((d) => d.kind === kind);

describe('deploy manifests', () => {
  let t: TestCluster;
  beforeAll(async () => {
    t = await startTestCluster(false);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a Deployment with at least 2 replicas, a Service, a ServiceAccount, a ClusterRole and its binding', () => {
    const deployment = byKind('Deployment')[0] as
      | { spec: { replicas: number; template: { spec: { serviceAccountName: string } } } }
      | undefined;
    expect(deployment?.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(deployment?.spec.template.spec.serviceAccountName).toBe('dcs-console-bff');
    expect(byKind('Service')).toHaveLength(1);
    expect(byKind('ServiceAccount')).toHaveLength(1);
    expect(byKind('ClusterRole')).toHaveLength(1);
    expect(byKind('ClusterRoleBinding')).toHaveLength(1);
  });

  it('grants only reads, and no Secrets: writes use the user’s own credential', () => {
    for (const role of [...byKind('ClusterRole'), ...byKind('Role')]) {
      // Issue 12: the audit recorder's Role writes records (ConfigMaps, Events) and nothing else.
      if ((role as { metadata?: { name?: string } }).metadata?.name === 'dcs-console-bff-audit') {
        expect((role as unknown as { rules: unknown[] }).rules).toEqual([
          { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'update'] },
          { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create'] },
        ]);
        continue;
      }
      for (const rule of (
        role as unknown as {
          rules: { resources: string[]; verbs: string[]; resourceNames?: string[] }[];
        }
      ).rules) {
        expect(rule.resources).not.toContain('secrets');
        expect(rule.resources).not.toContain('*');
        // The one exception: the session revocation list, patched by name (sign-out).
        if (rule.resourceNames?.join() === 'dcs-console-bff-revocations') {
          expect(rule.resources).toEqual(['configmaps']);
          expect(rule.verbs.every((v) => ['get', 'list', 'watch', 'patch'].includes(v))).toBe(true);
          continue;
        }
        expect(rule.verbs.every((v) => ['get', 'list', 'watch'].includes(v))).toBe(true);
      }
    }
  });

  it('passes a server dry run of every manifest (HTTP API, strict field validation)', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(t.kubeconfig);
    const client = new RestClient(await openConnection(kc, { allowInsecureTls: false }), {
      kind: 'kubeconfig',
      kubeConfig: kc,
    });
    const paths: Record<string, string> = {
      ServiceAccount: '/api/v1/namespaces/cpaas-system/serviceaccounts',
      ConfigMap: '/api/v1/namespaces/cpaas-system/configmaps',
      Service: '/api/v1/namespaces/cpaas-system/services',
      Deployment: '/apis/apps/v1/namespaces/cpaas-system/deployments',
      Secret: '/api/v1/namespaces/cpaas-system/secrets',
      ClusterRole: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      ClusterRoleBinding: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      Role: '/apis/rbac.authorization.k8s.io/v1/namespaces/cpaas-system/roles',
      RoleBinding: '/apis/rbac.authorization.k8s.io/v1/namespaces/cpaas-system/rolebindings',
    };
    for (const doc of docs) {
      const path = paths[doc.kind];
      expect(path, `a path for ${doc.kind}`).toBeDefined();
      if (path === undefined) continue;
      const res = await client.request('POST', path, {
        body: doc,
        query: { dryRun: 'All', fieldValidation: 'Strict' },
      });
      expect(res.status, `${doc.kind} ${doc.metadata.name}`).toBe(201);
    }
  });

  // The kustomization is named `Kustomization` (not kustomization.yaml) so that `-f` on the folder,
  // which reads every .yaml file as an object, does not take it for one.
  it.skipIf(!kubectl)(
    'passes `kubectl apply --dry-run=server` with -f apps/bff/deploy/ and with -k, and stores nothing',
    async () => {
      const run = promisify(execFile);
      for (const source of [
        ['-f', `${dir}/`],
        ['-k', dir],
      ]) {
        const { stdout } = await run(
          kubectl ?? 'kubectl',
          [
            '--kubeconfig',
            t.kubeconfig,
            // Its own discovery cache, as every test's kubectl (test/support/written.ts).
            '--cache-dir',
            join(dirname(t.kubeconfig), 'kube-cache'),
            'apply',
            '--dry-run=server',
            ...source,
          ],
          { timeout: 60_000 },
        );
        for (const doc of docs) {
          expect(stdout).toContain(`${doc.metadata.name} created (server dry run)`);
          const stored = t.cluster.server.client.get({
            apiVersion: doc.apiVersion,
            kind: doc.kind,
            name: doc.metadata.name,
            ...(doc.metadata.namespace !== undefined ? { namespace: doc.metadata.namespace } : {}),
          });
          expect(stored, `${doc.kind} ${doc.metadata.name}`).toBeUndefined();
        }
      }
    },
  );
});
