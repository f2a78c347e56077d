import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { openConnection } from '../src/kube/connection';
import { RestClient } from '../src/kube/rest';
import { startTestCluster, type TestCluster } from './support/embedded';

/**
 * The manifests of apps/bff/deploy: least privilege, ≥ 2 replicas, and accepted by a server dry
 * run (for the kinds the embedded API server serves; Service and the full Pod schema need a real
 * cluster: `kubectl apply --dry-run=server -k apps/bff/deploy`).
 */

interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [k: string]: unknown;
}

const dir = join(import.meta.dirname, '..', 'deploy');
const docs: Doc[] = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
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
      for (const rule of (role as unknown as { rules: { resources: string[]; verbs: string[] }[] })
        .rules) {
        expect(rule.verbs.every((v) => ['get', 'list', 'watch'].includes(v))).toBe(true);
        expect(rule.resources).not.toContain('secrets');
        expect(rule.resources).not.toContain('*');
      }
    }
  });

  it('passes a server dry run for the kinds the embedded API server serves', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(t.kubeconfig);
    const client = new RestClient(await openConnection(kc, { allowInsecureTls: false }), {
      kind: 'kubeconfig',
      kubeConfig: kc,
    });
    const paths: Record<string, string> = {
      ServiceAccount: '/api/v1/namespaces/cpaas-system/serviceaccounts',
      Secret: '/api/v1/namespaces/cpaas-system/secrets',
      ClusterRole: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      ClusterRoleBinding: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      Role: '/apis/rbac.authorization.k8s.io/v1/namespaces/cpaas-system/roles',
      RoleBinding: '/apis/rbac.authorization.k8s.io/v1/namespaces/cpaas-system/rolebindings',
    };
    for (const doc of docs) {
      const path = paths[doc.kind];
      if (path === undefined) continue;
      const res = await client.request('POST', path, {
        body: doc,
        query: { dryRun: 'All', fieldValidation: 'Strict' },
      });
      expect(res.status, `${doc.kind} ${doc.metadata.name}`).toBe(201);
    }
  });
});
