import { defaultBootstrapSpec, JSON_LIMITS, type MachineTemplateSpecInput } from '@dcs/domain';
import { aMachineTemplate, anIpEntry } from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/harness';

/**
 * Issue 11 / brief item 5: a body within the request bounds (JSON_LIMITS: depth 64) can still
 * make an object past them once the planner nests it (a bootstrap spec sits three levels deeper in
 * its KubeadmConfigTemplate). The planners turn the walker's JsonBoundsError into a request issue
 * that names the field and the bound: a 4xx at every route, Preview and Apply, never a 5xx.
 */

const BASE = '/api/v1/clusters/cpaas-system/demo';

/** `{x: {x: … {x: 1}}}`, `levels` containers deep. */
function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { x: v };
  return v;
}

function templateSpec(extra?: unknown): MachineTemplateSpecInput {
  const full = aMachineTemplate().spec?.template.spec;
  if (!full) throw new Error('the builder has a spec');
  const { ipHostPoolRef: _p, providerID: _id, ...spec } = full;
  return { ...spec, ...(extra === undefined ? {} : { extra }) };
}

describe('JSON bounds past the planner: a 4xx naming the field and the bound, never a 5xx', () => {
  const h = useTestApp({ seed: { entries: 8 } });

  /** Deep enough that the body passes the request bound and the object written does not. */
  const deep = () => nested(JSON_LIMITS.maxDepth - 3);

  const cases: {
    name: string;
    method: 'POST' | 'PATCH';
    url: string;
    body: () => unknown;
    field: RegExp;
    /**
     * `unknown`: the deep value sits in a field the kind does not have, refused as such before
     * any bound (issue 11: it would be pruned); else the bound is what is named.
     */
    refused?: 'unknown';
  }[] = [
    {
      name: 'O-CREATE-POOL: a bootstrap spec nested past the bound',
      method: 'POST',
      url: `${BASE}/nodepools`,
      field: /^bootstrap\.spec/,
      body: () => ({
        name: 'demo-deep-1',
        replicas: 1,
        version: 'v1.33.4',
        machineTemplate: { mode: 'new', name: 'demo-deep-1-template', spec: templateSpec() },
        bootstrap: {
          mode: 'new',
          name: 'demo-deep-1-kct',
          spec: {
            ...defaultBootstrapSpec({ version: 'v1.33.4', sshAuthorizedKeys: [] }),
            // Past the bound inside a field Cluster API has (an unknown one is refused first).
            clusterConfiguration: { extra: deep() },
          },
        },
        ipPool: { mode: 'new', name: 'demo-deep-1-ippool', entries: [anIpEntry(40)] },
        strategy: { maxSurge: 0, maxUnavailable: 1 },
      }),
    },
    {
      name: 'O-CREATE-POOL: a machine template spec nested past the bound',
      method: 'POST',
      url: `${BASE}/nodepools`,
      field: /^machineTemplate\.spec\.extra$/,
      refused: 'unknown',
      body: () => ({
        name: 'demo-deep-2',
        replicas: 1,
        version: 'v1.33.4',
        machineTemplate: { mode: 'new', name: 'demo-deep-2-template', spec: templateSpec(deep()) },
        bootstrap: {
          mode: 'new',
          name: 'demo-deep-2-kct',
          spec: defaultBootstrapSpec({ version: 'v1.33.4', sshAuthorizedKeys: [] }),
        },
        ipPool: { mode: 'new', name: 'demo-deep-2-ippool', entries: [anIpEntry(41)] },
        strategy: { maxSurge: 0, maxUnavailable: 1 },
      }),
    },
    {
      name: 'IP pool create: an entry nested past the bound',
      method: 'POST',
      url: '/api/v1/namespaces/cpaas-system/ippools',
      field: /^entries\.0\.extra$/,
      refused: 'unknown',
      body: () => ({ name: 'deep-pool', entries: [{ ...anIpEntry(42), extra: deep() }] }),
    },
  ];

  it('O-EDIT-IP-POOL on a pool someone wrote with kubectl past the bound: a 4xx, never a 5xx', async () => {
    await h.server().create({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DCSIpHostnamePool',
      metadata: { name: 'kubectl-deep', namespace: 'cpaas-system' },
      spec: { pool: [{ ...anIpEntry(43), extra: nested(JSON_LIMITS.maxDepth + 6) }] },
    });
    const url = '/api/v1/namespaces/cpaas-system/ippools/kubectl-deep';
    let rv = '';
    const deadline = Date.now() + 20_000;
    while (rv === '' && Date.now() < deadline) {
      const got = await h.s.request('GET', url);
      if (got.statusCode === 200)
        rv = got.json<{ resourceVersion?: string }>().resourceVersion ?? '';
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(rv).not.toBe('');
    for (const dry of [true, false]) {
      const res = await h.s.request('PATCH', `${url}${dry ? '?dryRun=true' : ''}`, {
        resourceVersion: rv,
        append: [anIpEntry(44)],
        remove: [],
        update: [],
      });
      expect(res.statusCode, res.body.slice(0, 400)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body.slice(0, 400)).toBeLessThan(500);
      const err = res.json<{ details: { message: string }[] }>();
      expect(err.details.map((d) => d.message).join('\n')).toContain(
        `deeper than ${String(JSON_LIMITS.maxDepth)} levels`,
      );
    }
  }, 30_000);

  for (const c of cases) {
    it(`${c.name}: Preview and Apply answer 4xx`, async () => {
      for (const dry of [true, false]) {
        const res = await h.s.request(c.method, `${c.url}${dry ? '?dryRun=true' : ''}`, c.body());
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, res.body).toBeLessThan(500);
        const err = res.json<{
          details: { path: string; message: string; messageKey: string }[];
        }>();
        const issue =
          c.refused === 'unknown'
            ? err.details.find((d) => d.messageKey === 'request.unknownField')
            : err.details.find((d) => /levels|bound|deeper/i.test(d.message));
        expect(issue, res.body).toBeDefined();
        expect(issue?.path).toMatch(c.field);
        if (c.refused !== 'unknown') {
          expect(issue?.message).toContain(String(JSON_LIMITS.maxDepth));
        }
      }
    }, 30_000);
  }
});
