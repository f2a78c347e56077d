import { describe, expect, it } from 'vitest';
import { formatMessage } from '../i18n/messages';
import { JsonBoundsError } from '../json-bounds';
import { planCreatePool } from '../planners/create-pool';
import { applyMergePatch, applyJsonPatch, jsonClone, jsonEqual } from '../planners/json-patch';
import { parseGoDuration } from '../rules/duration';
import { aCreatePoolRequest, anIpEntry, aValidationContext } from '../testing';
import {
  CreatePoolRequestSchema,
  EditControlPlaneConfigRequestSchema,
  PatchIpPoolRequestSchema,
  ScaleReplicasRequestSchema,
  requestIssues,
} from '.';

/** The RuleIssues of a refused create request (fails the test when it is accepted). */
function refusal(input: unknown) {
  const parsed = CreatePoolRequestSchema.safeParse(input);
  if (parsed.success) throw new Error('the request was accepted');
  return requestIssues(parsed.error, input);
}

function deep(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { x: v };
  return v;
}

describe('durations Cluster API decodes (metav1.Duration = Go time.ParseDuration)', () => {
  it.each([
    ['0', 0],
    ['1m', 60e9],
    ['1h30m', 5400e9],
    ['1.5h', 5400e9],
    ['.5s', 0.5e9],
    ['300ms', 300e6],
    ['2us', 2000],
    ['2µs', 2000],
    ['+5s', 5e9],
    ['-5s', -5e9],
  ])('parses %s', (text, nanos) => {
    expect(parseGoDuration(text)).toBe(nanos);
  });

  it.each([
    'soon',
    '',
    '1',
    '1 m',
    ' 1m',
    '1d',
    '1m ',
    'm',
    '.s',
    '1mm',
    '1.2.3s',
    '1e3s',
    '0x10s',
  ])('refuses %j', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });

  it('refuses a duration past int64 nanoseconds', () => {
    expect(parseGoDuration('2562047h')).toBeDefined();
    expect(parseGoDuration('2562048h')).toBeUndefined();
  });

  it.each(['nodeDrainTimeout', 'nodeDeletionTimeout', 'nodeVolumeDetachTimeout'] as const)(
    'R-MD-7: %s "soon" is refused by the shared request schema, naming the field and the format',
    (field) => {
      const [i, ...more] = refusal(aCreatePoolRequest({ [field]: 'soon' }));
      expect(more).toEqual([]);
      expect(i).toMatchObject({
        rule: 'R-MD-7',
        path: field,
        messageKey: 'request.durationInvalid',
      });
      expect(i?.message).toContain(`${field} "soon" is not a duration`);
      expect(formatMessage('request.durationInvalid', i?.params, 'zh-CN')).toContain(field);
    },
  );

  it('R-REQUEST: O-EDIT-CP-CONFIG refuses a kubeadmConfigSpec field Cluster API does not know, as a new bootstrap template does', () => {
    const body = (kubeadmConfigSpec: Record<string, unknown>) => ({
      resourceVersion: '7',
      kubeadmConfigSpec,
    });
    const request = (spec: Record<string, unknown>) =>
      EditControlPlaneConfigRequestSchema.safeParse(body(spec));
    const typoSpec = { files: [], postKubeadmCommand: ['x'] };
    const typo = request(typoSpec);
    expect(typo.success).toBe(false);
    const issues = typo.success ? [] : requestIssues(typo.error, body(typoSpec));
    expect(issues).toEqual([
      expect.objectContaining({
        rule: 'R-REQUEST',
        path: 'kubeadmConfigSpec.postKubeadmCommand',
        messageKey: 'request.unknownField',
      }),
    ]);
    expect(request({ files: [], postKubeadmCommands: ['x'], ntp: { enabled: true } }).success).toBe(
      true,
    );
  });

  it('R-REQUEST: an unknown field nested in an IP pool entry is refused at its full path (issue 11)', () => {
    const entry = {
      ...anIpEntry(4),
      additionNic: [
        { dvSwitchName: 'dvs-2', portGroupName: 'pg-2', ip: '192.168.0.20', gatway: '192.168.0.1' },
      ],
      persistentDisk: [{ slot: 0, quantityGB: 40, path: '/data', thin: true }],
    };
    const base = aCreatePoolRequest();
    const issues = refusal({
      ...base,
      ipPool: { mode: 'new', name: 'demo-md-1-ippool', entries: [entry, anIpEntry(5)] },
    });
    expect(issues.map((i) => [i.rule, i.path, i.messageKey])).toEqual([
      ['R-REQUEST', 'ipPool.entries.0.additionNic.0.gatway', 'request.unknownField'],
      ['R-REQUEST', 'ipPool.entries.0.persistentDisk.0.thin', 'request.unknownField'],
    ]);
    expect(issues[0]?.message).toContain(
      'additionNic.0.gatway is not a field of DCSIpHostnamePool entry',
    );
    // The same entry sent as an update of its NICs alone.
    const patch = PatchIpPoolRequestSchema.safeParse({
      resourceVersion: '1',
      update: [{ ip: '10.0.1.10', additionNic: entry.additionNic }],
    });
    expect(patch.success).toBe(false);
    expect(
      patch.success ? [] : requestIssues(patch.error, {}).map((i) => [i.path, i.message]),
    ).toEqual([
      [
        'update.0.additionNic.0.gatway',
        expect.stringContaining('additionNic.0.gatway is not a field of DCSIpHostnamePool entry'),
      ],
    ]);
  });

  it('R-REQUEST: a field of the request itself that it does not have is refused, not ignored (issue 11)', () => {
    const issues = refusal({ ...aCreatePoolRequest(), nodeDrainTimout: '5m' });
    expect(issues.map((i) => [i.rule, i.path, i.messageKey])).toEqual([
      ['R-REQUEST', 'nodeDrainTimout', 'request.unknownRequestField'],
    ]);
    expect(issues[0]?.message).toBe(
      'nodeDrainTimout is not a field of this request: the console would ignore it. Remove it or check its spelling.',
    );
  });

  it('R-REQUEST: a nested KubeadmConfigSpec field upstream does not have is refused; its maps take any key', () => {
    const base = aCreatePoolRequest();
    const spec = base.bootstrap.mode === 'new' ? base.bootstrap.spec : {};
    const withSpec = (s: Record<string, unknown>) => ({
      ...base,
      bootstrap: { mode: 'new' as const, name: 'demo-md-1-kct', spec: { ...spec, ...s } },
    });
    expect(
      refusal(withSpec({ users: [{ name: 'boot', sshAuthorizedKey: ['k'] }] })).map((i) => i.path),
    ).toEqual(['bootstrap.spec.users.0.sshAuthorizedKey']);
    expect(refusal(withSpec({ ntp: { enabled: true, server: ['x'] } })).map((i) => i.path)).toEqual(
      ['bootstrap.spec.ntp.server'],
    );
    expect(
      CreatePoolRequestSchema.safeParse(
        withSpec({
          ntp: { enabled: true, servers: ['10.0.0.9'] },
          clusterConfiguration: { apiServer: { extraArgs: { 'any-flag': 'x' } } },
        }),
      ).success,
    ).toBe(true);
  });

  it('R-REQUEST: a bootstrap spec field Cluster API does not know is refused, naming it (issue 11)', () => {
    // Found by the contract test: a typo was written as sent, and a real API server prunes it.
    const base = aCreatePoolRequest();
    const spec = base.bootstrap.mode === 'new' ? base.bootstrap.spec : {};
    const [i, ...more] = refusal({
      ...base,
      bootstrap: {
        mode: 'new',
        name: 'demo-md-1-kct',
        spec: { ...spec, postKubeadmCommand: ['x'] },
      },
    });
    expect(more).toEqual([]);
    expect(i).toMatchObject({
      rule: 'R-REQUEST',
      path: 'bootstrap.spec.postKubeadmCommand',
      messageKey: 'request.unknownField',
    });
    expect(i?.message).toContain('postKubeadmCommand is not a field of KubeadmConfigSpec');
    expect(formatMessage('request.unknownField', i?.params, 'zh-CN')).toContain(
      'postKubeadmCommand',
    );
    // Every upstream field, modelled here or not, is accepted.
    expect(
      CreatePoolRequestSchema.safeParse({
        ...base,
        bootstrap: {
          mode: 'new',
          name: 'demo-md-1-kct',
          spec: { ...spec, ntp: { enabled: true }, mounts: [] },
        },
      }).success,
    ).toBe(true);
  });

  it('R-MD-7: a negative timeout is refused; valid ones reach the MachineDeployment as written', () => {
    expect(refusal(aCreatePoolRequest({ nodeDrainTimeout: '-1m' }))[0]?.messageKey).toBe(
      'request.durationNegative',
    );
    const req = CreatePoolRequestSchema.parse(
      aCreatePoolRequest({ nodeDrainTimeout: '90s', nodeVolumeDetachTimeout: '1h30m' }),
    );
    const plan = planCreatePool(req, {}, aValidationContext());
    const md = plan.steps.at(-1);
    expect(md?.verb === 'create' && md.body.spec).toMatchObject({
      template: { spec: { nodeDrainTimeout: '90s', nodeVolumeDetachTimeout: '1h30m' } },
    });
  });
});

describe('R-MD-2 in the request: maxSurge / maxUnavailable are an int ≥ 0 or "N%"', () => {
  it.each([
    [-1, 'md.intOrPercent.negative', 'maxSurge -1 is negative'],
    ['-1', 'md.intOrPercent.negative', 'maxSurge -1 is negative'],
    [1.5, 'md.intOrPercent.notInteger', 'maxSurge 1.5 is not a whole number'],
    ['1', 'md.intOrPercent.notPercent', 'maxSurge "1" is a string but not a percentage'],
    ['x%', 'md.intOrPercent.badPercent', 'maxSurge "x%" is not a valid percentage'],
  ])('maxSurge %j: %s', (maxSurge, key, text) => {
    const issues = refusal(aCreatePoolRequest({ strategy: { maxSurge, maxUnavailable: 1 } }));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ rule: 'R-MD-2', path: 'strategy.maxSurge', messageKey: key });
    expect(issues[0]?.message).toContain(text);
  });

  it('accepts 0, 3 and "25%"', () => {
    for (const v of [0, 3, '25%']) {
      const r = CreatePoolRequestSchema.safeParse(
        aCreatePoolRequest({ strategy: { maxSurge: v, maxUnavailable: 1 } }),
      );
      expect(r.success, String(v)).toBe(true);
    }
  });
});

describe('R-REQUEST: messages of the request’s shape name the field and the problem', () => {
  it('replicas -1 says it is below 0, not "Required."', () => {
    const [i] = refusal(aCreatePoolRequest({ replicas: -1 }));
    expect(i).toMatchObject({ path: 'replicas', messageKey: 'request.tooSmall' });
    expect(i?.message).toBe('replicas -1 is less than 0: enter 0 or more.');
    expect(formatMessage('request.tooSmall', i?.params, 'zh-CN')).toBe(
      'replicas -1 小于 0：请填写 0 或更大的值。',
    );
  });

  it("R-MD-1: replicas beyond int32 (the CRDs' format) name the limit, for a new pool and a scale", () => {
    const [i] = refusal(aCreatePoolRequest({ replicas: 3_000_000_000 }));
    expect(i).toMatchObject({
      path: 'replicas',
      rule: 'R-MD-1',
      messageKey: 'request.tooBigNumber',
    });
    expect(i?.message).toBe(
      'replicas 3000000000 is more than 2147483647: enter 2147483647 or less.',
    );
    expect(
      ScaleReplicasRequestSchema.safeParse({ replicas: 2 ** 31, resourceVersion: '1' }).success,
    ).toBe(false);
    expect(
      ScaleReplicasRequestSchema.safeParse({ replicas: 2 ** 31 - 1, resourceVersion: '1' }).success,
    ).toBe(true);
  });

  it('replicas 1.5 is not a whole number; a missing name is required', () => {
    expect(refusal(aCreatePoolRequest({ replicas: 1.5 }))[0]?.message).toBe(
      'replicas 1.5 is not a whole number: enter an integer.',
    );
    expect(refusal(aCreatePoolRequest({ name: '' }))[0]?.message).toBe('name is required.');
  });

  it('an empty new IP pool needs at least one entry (singular)', () => {
    const issues = refusal(
      aCreatePoolRequest({ ipPool: { mode: 'new', name: 'demo-md-1-ippool', entries: [] } }),
    );
    expect(issues[0]?.message).toBe('entries needs at least 1 item: add one.');
  });

  it('an unknown mode names the allowed ones', () => {
    const issues = refusal({ ...aCreatePoolRequest(), ipPool: { mode: 'maybe', name: 'p' } });
    expect(issues[0]).toMatchObject({ path: 'ipPool.mode', messageKey: 'request.notAllowed' });
    expect(issues[0]?.message).toContain('new');
  });
});

describe('R-POOL-3: addresses are stored as Kubernetes and DCS read them', () => {
  it('trims mask, ip, gateway and dns of entries and extra NICs', () => {
    const entry = {
      ...anIpEntry(4),
      ip: '10.0.1.14\n',
      mask: ' 24',
      gateway: '10.0.1.1 ',
      dns: ' 10.0.0.2',
      additionNic: [
        { ip: ' 192.168.0.14', mask: '24 ', dvSwitchName: 'dvs-2 ', portGroupName: 'pg-2' },
      ],
    };
    const req = ScaleReplicasRequestSchema.parse({
      replicas: 4,
      resourceVersion: '1',
      ipPoolAppend: { name: 'demo-worker-pool', resourceVersion: '1', entries: [entry] },
    });
    expect(req.ipPoolAppend?.entries[0]).toMatchObject({
      ip: '10.0.1.14',
      mask: '24',
      gateway: '10.0.1.1',
      dns: '10.0.0.2',
      additionNic: [{ ip: '192.168.0.14', mask: '24', dvSwitchName: 'dvs-2' }],
    });
  });
});

describe('issue 10 item 6: content that passes through loose objects is bounded', () => {
  it('refuses a depth-20,000 value in a pass-through field without overflowing the stack', () => {
    const input = aCreatePoolRequest();
    const template = input.machineTemplate;
    if (template.mode !== 'new') throw new Error('a new template');
    const issues = refusal({
      ...input,
      machineTemplate: { ...template, spec: { ...template.spec, extra: deep(20_000) } },
    });
    // Both reasons are said: the field is unknown (issue 11), and its content too deep to store.
    expect(issues.map((i) => [i.path, i.messageKey])).toEqual([
      ['machineTemplate.spec.extra', 'request.unknownField'],
      [expect.stringMatching(/^machineTemplate\.spec\.extra/), 'request.tooDeep'],
    ]);
    expect(issues[1]?.message).toContain('deeper than 64 levels');
  });

  it('refuses a 900 KB string in an unknown field of an entry', () => {
    const entry = { ...anIpEntry(4), note: 'x'.repeat(900_000) };
    const parsed = PatchIpPoolRequestSchema.safeParse({ resourceVersion: '1', append: [entry] });
    expect(parsed.success).toBe(false);
    const issues = parsed.success ? [] : requestIssues(parsed.error, entry);
    expect(issues).toContainEqual(
      expect.objectContaining({ path: 'append.0.note', messageKey: 'request.stringTooLong' }),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({ path: 'append.0.note', messageKey: 'request.unknownField' }),
    );
  });

  it('refuses a request over 1 MiB of JSON, however it is spread', () => {
    const entries = Array.from({ length: 40 }, (_, i) => ({
      ...anIpEntry(i + 4),
      note: 'y'.repeat(30_000),
    }));
    const parsed = PatchIpPoolRequestSchema.safeParse({ resourceVersion: '1', append: entries });
    expect(parsed.success).toBe(false);
    expect(parsed.success || requestIssues(parsed.error, {}).map((i) => i.messageKey)).toContain(
      'request.tooLarge',
    );
  });

  it('jsonClone refuses a depth-20,000 object with a JsonBoundsError, not a RangeError', () => {
    expect(() => jsonClone(deep(20_000))).toThrow(JsonBoundsError);
    expect(() => applyMergePatch({}, deep(20_000))).toThrow(JsonBoundsError);
  });
});

describe('issue 10 item 1: __proto__, constructor and prototype are inert in the JSON walkers', () => {
  it('a merge patch with a __proto__ member sets an own member, never the prototype', () => {
    const patch = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": {"x": 1}}',
    ) as object;
    const out = applyMergePatch<Record<string, unknown>>({ a: 1 }, patch);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('a JSON patch cannot descend into or replace a prototype', () => {
    expect(() =>
      applyJsonPatch({ a: {} }, [{ op: 'add', path: '/a/__proto__/polluted', value: 1 }]),
    ).toThrow(/no member "__proto__"/);
    const out = applyJsonPatch<Record<string, unknown>>({ a: {} }, [
      { op: 'add', path: '/__proto__', value: { polluted: true } },
    ]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('jsonEqual compares own members: {constructor} is not equal to {}', () => {
    expect(jsonEqual(JSON.parse('{"constructor": 1}'), {})).toBe(false);
    expect(jsonEqual({ a: 1, constructor: 1 }, { a: 1, b: 2 })).toBe(false);
  });
});
