import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../src/index';
import { testKinds, widgetHooks } from './support/kinds';

function findKubectl(): string | undefined {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return 'kubectl';
  } catch {
    return undefined;
  }
}

const kubectl = findKubectl();
if (!kubectl) console.log('kubectl tests skipped: no kubectl binary on PATH');

let server: ApiServer;
let dir: string;

function run(args: string[], input?: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      kubectl ?? 'kubectl',
      args,
      { env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig'), HOME: dir }, timeout: 30_000 },
      (error, stdout, stderr) => {
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          out: stdout,
          err: stderr,
        });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

const manifest = `apiVersion: example.com/v1
kind: Widget
metadata:
  name: k1
  labels:
    example.com/owner: kate
spec:
  color: red
  size: 3
---
apiVersion: cluster.x-k8s.io/v1beta1
kind: MachineDeployment
metadata:
  name: md1
spec:
  clusterName: c1
  replicas: 1
`;

describe.skipIf(!kubectl)('kubectl against the server', () => {
  beforeAll(async () => {
    server = await startApiServer({
      kinds: testKinds,
      admission: widgetHooks,
      tokens: [
        { token: 'admin', user: 'admin', groups: ['system:masters'] },
        { token: 'viewer', user: 'viewer' },
      ],
    });
    await server.client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'viewer' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'viewer' }],
    });
    dir = mkdtempSync(join(tmpdir(), 'apiserver-kubectl-'));
    writeFileSync(
      join(dir, 'kubeconfig'),
      server.kubeconfig([
        { name: 'admin', token: 'admin', namespace: 'default' },
        { name: 'viewer', token: 'viewer', namespace: 'default' },
      ]),
    );
    writeFileSync(join(dir, 'm.yaml'), manifest);
  });
  afterAll(async () => {
    await server.close();
  });

  it('stores a Service and prints it as kubectl get svc does (no cluster IP is allocated)', async () => {
    const svc = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
    - name: http
      port: 80
      targetPort: http
`;
    writeFileSync(join(dir, 'svc.yaml'), svc);
    const dry = await run(['apply', '--dry-run=server', '-f', join(dir, 'svc.yaml')]);
    expect(dry.code, dry.err).toBe(0);
    expect((await run(['get', 'svc'])).out).not.toContain('web');
    expect((await run(['apply', '-f', join(dir, 'svc.yaml')])).out).toContain(
      'service/web created',
    );
    const wide = await run(['get', 'svc', 'web', '-o', 'wide']);
    expect(wide.out).toMatch(/NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\s+SELECTOR/);
    expect(wide.out).toMatch(/web\s+ClusterIP\s+<none>\s+<none>\s+80\/TCP\s+\S+\s+app=web/);
    expect((await run(['get', 'svc', 'web', '-o', 'jsonpath={.spec.ports[0].protocol}'])).out).toBe(
      'TCP',
    );
    expect((await run(['delete', 'svc', 'web'])).code).toBe(0);
  });

  it('serves Nodes and prints them as kubectl get nodes does (status, roles, version; cordon)', async () => {
    const node = (name: string, ready: string, labels: Record<string, string> = {}) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels },
      spec: { providerID: `dcs://${name}` },
      status: {
        conditions: [{ type: 'Ready', status: ready, reason: 'KubeletReady' }],
        addresses: [
          { type: 'InternalIP', address: '10.0.0.7' },
          { type: 'Hostname', address: name },
        ],
        nodeInfo: { kubeletVersion: 'v1.33.4', osImage: 'Alauda OS 9.5 (DCS)' },
      },
    });
    await server.client.create(
      node('cp-1', 'True', { 'node-role.kubernetes.io/control-plane': '' }),
    );
    await server.client.create(node('w-1', 'False'));
    const get = await run(['get', 'nodes']);
    expect(get.code, get.err).toBe(0);
    expect(get.out).toMatch(/NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION/);
    expect(get.out).toMatch(/cp-1\s+Ready\s+control-plane\s+\S+\s+v1\.33\.4/);
    expect(get.out).toMatch(/w-1\s+NotReady\s+<none>\s+\S+\s+v1\.33\.4/);
    const wide = await run(['get', 'no', 'cp-1', '-o', 'wide']);
    expect(wide.out).toMatch(
      /cp-1\s+Ready\s+control-plane\s+\S+\s+v1\.33\.4\s+10\.0\.0\.7\s+<none>\s+Alauda OS/,
    );
    // kubectl cordon patches spec.unschedulable with a strategic merge patch.
    const cordon = await run(['cordon', 'w-1']);
    expect(cordon.code, cordon.err).toBe(0);
    expect((await run(['get', 'node', 'w-1'])).out).toMatch(/w-1\s+NotReady,SchedulingDisabled/);
    // The viewer role (upstream's view) does not read Nodes: they are cluster-scoped, not aggregated.
    expect((await run(['--context', 'viewer', 'get', 'nodes'])).code).not.toBe(0);
    expect((await run(['delete', 'node', 'cp-1', 'w-1'])).code).toBe(0);
  });

  it('kubectl get events shows an Event created through events.k8s.io/v1 (one Event resource, issue 12)', async () => {
    await server.client.create({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'audit-scale', namespace: 'default' },
      eventTime: new Date().toISOString().replace('Z', '000Z'),
      reportingController: 'dcs.io/node-pool-console',
      reportingInstance: 'bff-0',
      action: 'O-SCALE-UP',
      reason: 'Applied',
      type: 'Normal',
      regarding: { kind: 'MachineDeployment', name: 'md-audit', namespace: 'default' },
      note: 'alice scaled md-audit 4 to 6',
    });
    const got = await run(['get', 'events']);
    expect(got.code, got.err).toBe(0);
    expect(got.out).toMatch(/LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE/);
    expect(got.out).toMatch(
      /\d+s\s+Normal\s+Applied\s+machinedeployment\/md-audit\s+alice scaled md-audit 4 to 6/,
    );
    const both = await run([
      'get',
      'events.v1.events.k8s.io',
      'audit-scale',
      '-o',
      'jsonpath={.note}',
    ]);
    expect(both.out).toBe('alice scaled md-audit 4 to 6');
    expect((await run(['delete', 'events', 'audit-scale'])).code).toBe(0);
    expect((await run(['get', 'events.v1.events.k8s.io', 'audit-scale'])).code).not.toBe(0);
  });

  it('applies, gets (yaml, wide), patches, scales and deletes', async () => {
    expect((await run(['apply', '-f', join(dir, 'm.yaml')])).out).toContain(
      'widget.example.com/k1 created',
    );
    expect((await run(['apply', '-f', join(dir, 'm.yaml')])).out).toContain(
      'widget.example.com/k1 unchanged',
    );
    const wide = await run(['get', 'wd', '-o', 'wide']);
    expect(wide.out).toMatch(/NAME\s+COLOR\s+SIZE\s+OWNER\s+AGE/);
    expect(wide.out).toMatch(/k1\s+red\s+3\s+kate/);
    expect((await run(['get', 'widget', 'k1'])).out).not.toContain('OWNER');
    expect((await run(['get', 'wd', 'k1', '-o', 'yaml'])).out).toContain('color: red');
    expect(
      (await run(['patch', 'wd', 'k1', '--type', 'merge', '-p', '{"spec":{"size":4}}'])).code,
    ).toBe(0);
    expect(
      (
        await run([
          'patch',
          'wd',
          'k1',
          '--type',
          'json',
          '-p',
          '[{"op":"replace","path":"/spec/size","value":5}]',
        ])
      ).code,
    ).toBe(0);
    const failedTest = await run([
      'patch',
      'wd',
      'k1',
      '--type',
      'json',
      '-p',
      '[{"op":"test","path":"/spec/size","value":9}]',
    ]);
    expect(failedTest.code).not.toBe(0);
    expect((await run(['get', 'wd', 'k1', '-o', 'jsonpath={.spec.size}'])).out).toBe('5');
    expect((await run(['scale', 'md', 'md1', '--replicas=3'])).out).toContain('scaled');
    expect((await run(['get', 'md', 'md1', '-o', 'jsonpath={.spec.replicas}'])).out).toBe('3');
    const invalid = await run([
      'patch',
      'wd',
      'k1',
      '--type',
      'merge',
      '-p',
      '{"spec":{"size":500}}',
    ]);
    expect(invalid.err).toContain('R-WIDGET-1');
    expect((await run(['delete', 'wd', 'k1'])).out).toContain('widget.example.com "k1" deleted');
    expect((await run(['get', 'wd', 'k1'])).err).toContain('NotFound');
  });

  it('server-side applies, explains, and answers auth can-i', async () => {
    const ssa = await run(
      ['apply', '--server-side', '-f', '-'],
      'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: s1\nspec:\n  color: green\n',
    );
    expect(ssa.out).toContain('serverside-applied');
    const explain = await run(['explain', 'widgets.spec.color']);
    expect(explain.out).toContain('The color of the widget.');
    expect((await run(['auth', 'can-i', 'delete', 'widgets'])).out.trim()).toBe('yes');
    expect(
      (await run(['--context', 'viewer', 'auth', 'can-i', 'delete', 'widgets'])).out.trim(),
    ).toBe('no');
    const forbidden = await run(['--context', 'viewer', 'delete', 'wd', 's1']);
    expect(forbidden.err).toContain(
      'User "viewer" cannot delete resource "widgets" in API group "example.com" in the namespace "default"',
    );
    expect((await run(['create', 'configmap', 'c1', '--from-literal=a=b'])).out).toContain(
      'configmap/c1 created',
    );
  });

  it('watches with server-side tables', async () => {
    const watching = run(['get', 'wd', '-w', '--request-timeout=3s']);
    await new Promise((r) => setTimeout(r, 1000));
    await run(['patch', 'wd', 's1', '--type', 'merge', '-p', '{"spec":{"color":"blue"}}']);
    const { out } = await watching;
    expect(out).toMatch(/s1\s+green/);
    expect(out).toMatch(/s1\s+blue/);
  });
});
