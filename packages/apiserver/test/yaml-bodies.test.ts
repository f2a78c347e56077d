/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests assert on arbitrary JSON from the wire */
/**
 * YAML request bodies are decoded in time linear in their size and to at most what a JSON body
 * may hold (issue 25, item 7: a map of 30,000 keys, 289 KB, held the server 9–10 s, quadratic in
 * the keys, from any signed-in user). The bound on time is generous (the fixed decoder takes well
 * under a tenth of it here); the quadratic one took minutes at these sizes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../src/limits';
import { VIEWER, startTestServer, type TestServer } from './support/server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.server.close();
});

const CMS = '/api/v1/namespaces/default/configmaps';

/** A ConfigMap as YAML whose data holds `keys` entries, grown until it is about `bytes` long. */
function wideConfigMap(name: string, keys: number): string {
  const lines = [`apiVersion: v1`, `kind: ConfigMap`, `metadata:`, `  name: ${name}`, `data:`];
  for (let i = 0; i < keys; i++) lines.push(`  k${i}: v${i}`);
  return `${lines.join('\n')}\n`;
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work();
  return { result, ms: performance.now() - start };
}

describe('YAML bodies (issue 25, item 7)', () => {
  it('the largest YAML map a body may hold is decoded in linear time, on every YAML path', async () => {
    // 170,000 keys: just under the 3 MiB body limit.
    const text = wideConfigMap('wide', 170_000);
    expect(text.length).toBeLessThan(MAX_BODY_BYTES);
    const create = await timed(() =>
      t.api('POST', CMS, { contentType: 'application/yaml', body: text }),
    );
    // Decoded, then refused as too large to store (1.5 MiB): the decode is what is timed.
    expect(create.result.status).toBe(413);
    expect(create.ms).toBeLessThan(3_000);
    const apply = await timed(() =>
      t.api('PATCH', `${CMS}/wide?fieldManager=yaml`, {
        contentType: 'application/apply-patch+yaml',
        body: text,
      }),
    );
    expect(apply.result.status).toBe(413);
    expect(apply.ms).toBeLessThan(3_000);
  });

  it("a viewer's SelfSubjectReview as a wide YAML map is answered at once", async () => {
    const lines = ['apiVersion: authentication.k8s.io/v1', 'kind: SelfSubjectReview', 'spec:'];
    for (let i = 0; i < 60_000; i++) lines.push(`  k${i}: v${i}`);
    const res = await timed(() =>
      t.api('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        token: VIEWER,
        contentType: 'application/yaml',
        body: `${lines.join('\n')}\n`,
      }),
    );
    expect(res.result.status).toBeLessThan(500);
    expect(res.ms).toBeLessThan(3_000);
  });

  it('duplicate keys are a 400 naming the key, as before', async () => {
    const res = await t.api('POST', CMS, {
      contentType: 'application/yaml',
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup\ndata:\n  a: "1"\n  a: "2"\n',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/error converting YAML to JSON: .*duplicate.*key/i);
    expect((await t.api('GET', `${CMS}/dup`)).status).toBe(404);
  });

  it("aliases cannot expand a body past what kube-apiserver's decoder allows (billion laughs)", async () => {
    // 9 levels of 9 aliases: 9^9 = 387 million strings once expanded, from 300 bytes of text.
    const levels = ['a: &l0 ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i <= 9; i++)
      levels.push(
        `l${i}: &l${i} [${Array(9)
          .fill(`*l${i - 1}`)
          .join(',')}]`,
      );
    const body = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: laughs\nbinaryData: {}\ndata: {}\nx:\n${levels.map((l) => `  ${l}`).join('\n')}\n`;
    const res = await timed(() => t.api('POST', CMS, { contentType: 'application/yaml', body }));
    expect(res.result.status).toBe(400);
    expect(res.result.body.message).toContain(
      'error converting YAML to JSON: yaml: document contains excessive aliasing',
    );
    expect(res.ms).toBeLessThan(3_000);
  });

  it('a few aliases, and `<<` as a plain key (YAML 1.2, no merge), decode as before', async () => {
    const res = await t.api('POST', CMS, {
      contentType: 'application/yaml',
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: anchors\n  labels: &l {app: web}\n  annotations: *l\ndata:\n  "<<": "x"\n  when: 2026-01-01\n  yes: "true"\n',
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata.annotations).toEqual({ app: 'web' });
    expect(res.body.data).toEqual({ '<<': 'x', when: '2026-01-01', yes: 'true' });
  });

  it('several documents in one body are a 400', async () => {
    const res = await t.api('POST', CMS, {
      contentType: 'application/yaml',
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
    });
    expect(res.status).toBe(400);
  });
});
