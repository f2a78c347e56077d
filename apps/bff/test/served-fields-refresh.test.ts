import {
  kindTable,
  servedSchemaPaths,
  type FieldTree,
  type OpenApiV3DocumentLike,
} from '@dcs/domain';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { KubeClient, KubeResponse } from '../src/kube/rest';
import { ServedFieldTrees } from '../src/requests/served-fields';

/**
 * How often the BFF reads the served OpenAPI documents (issue 11 follow-up): once per `ttlMs`
 * however many requests are judged meanwhile, one read for requests that arrive together, a
 * changed CRD picked up after the interval, and a cluster that cannot answer judged by the domain's
 * trees without a throw, then read again on the next interval. A fake client and clock: no timing.
 */

const MT = kindTable.DCSMachineTemplate;
const MT_PATH = `apis/${MT.group}/${MT.version}`;

/** A served document describing DCSMachineTemplate with the given fields under spec.template.spec. */
function templateDoc(fields: readonly string[]): OpenApiV3DocumentLike {
  const props = Object.fromEntries(fields.map((f) => [f, {}]));
  return {
    components: {
      schemas: {
        'io.x-k8s.cluster.infrastructure.v1beta1.DCSMachineTemplate': {
          'x-kubernetes-group-version-kind': [
            { group: MT.group, version: MT.version, kind: 'DCSMachineTemplate' },
          ],
          properties: {
            spec: {
              properties: {
                template: {
                  properties: { spec: { properties: props } },
                },
              },
            },
          },
        },
      },
    },
  };
}

class FakeClient implements KubeClient {
  readonly asked: string[] = [];
  doc = templateDoc(['vmTemplateName']);
  failing = false;
  /** Answers wait for this when set, so that requests can arrive during one read. */
  gate: Promise<void> | undefined;

  async request(method: string, path: string): Promise<KubeResponse> {
    this.asked.push(`${method} ${path}`);
    await this.gate;
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
    if (path === `/openapi/v3/${MT_PATH}`) return { status: 200, body: this.doc };
    return { status: 404, body: { kind: 'Status', code: 404 } };
  }
}

function setup(ttlMs = 60_000) {
  const client = new FakeClient();
  const warnings: string[] = [];
  const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
  log.warn = (obj: unknown, msg?: string) => {
    warnings.push(msg ?? String(obj));
  };
  let now = 1_000_000;
  const served = new ServedFieldTrees(client, log, { ttlMs, now: () => now });
  return {
    client,
    served,
    warnings,
    advance: (ms: number) => {
      now += ms;
    },
    /** How many times the documents were read (each read asks every served path once). */
    reads: () => client.asked.length / servedSchemaPaths().length,
  };
}

const fieldsOf = (tree: FieldTree) => Object.keys(tree.properties ?? {}).sort();

describe('served field trees: read at most once per interval (issue 11)', () => {
  it('many requests within the interval read the documents once, and share one trees object', async () => {
    const t = setup();
    const first = await t.served.current();
    for (let i = 0; i < 50; i++) {
      t.advance(1_000);
      expect(await t.served.current()).toBe(first);
    }
    expect(t.reads()).toBe(1);
    expect(first.sources.machineTemplateSpec).toBe('served');
  });

  it('requests that arrive during a read wait for that read, not a read of their own', async () => {
    const t = setup();
    let open!: () => void;
    t.client.gate = new Promise((resolve) => (open = resolve));
    const answers = Array.from({ length: 10 }, () => t.served.current());
    open();
    const all = await Promise.all(answers);
    expect(new Set(all).size).toBe(1);
    expect(t.reads()).toBe(1);
  });

  it('after the interval the documents are read again: a changed CRD is picked up, an unchanged one keeps the same trees', async () => {
    const t = setup(60_000);
    const first = await t.served.current();
    expect(fieldsOf(first.trees.machineTemplateSpec)).toEqual(['vmTemplateName']);
    t.advance(60_000);
    const same = await t.served.current();
    expect(t.reads()).toBe(2);
    // Nothing changed: the same trees object, so the request schemas built on it are reused.
    expect(same.trees).toBe(first.trees);
    t.client.doc = templateDoc(['vmTemplateName', 'antiAffinityGroup']);
    t.advance(59_999);
    expect(fieldsOf((await t.served.current()).trees.machineTemplateSpec)).toEqual([
      'vmTemplateName',
    ]);
    t.advance(1);
    const changed = await t.served.current();
    expect(t.reads()).toBe(3);
    expect(fieldsOf(changed.trees.machineTemplateSpec)).toEqual([
      'antiAffinityGroup',
      'vmTemplateName',
    ]);
  });

  it('a cluster that cannot answer: the domain trees, a warning, no throw; read again after the interval', async () => {
    const t = setup();
    t.client.failing = true;
    const fallback = await t.served.current();
    expect(Object.values(fallback.sources).every((s) => s === 'domain')).toBe(true);
    expect(t.warnings.length).toBe(servedSchemaPaths().length);
    expect(t.warnings[0]).toContain('domain schemas');
    // Not asked again on every request while it fails …
    t.advance(30_000);
    await t.served.current();
    expect(t.reads()).toBe(1);
    // … but on the next interval, and then the served document is used.
    t.client.failing = false;
    t.advance(30_000);
    const back = await t.served.current();
    expect(t.reads()).toBe(2);
    expect(back.sources.machineTemplateSpec).toBe('served');
  });
});
