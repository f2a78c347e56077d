import { describe, expect, it } from 'vitest';
import { aMachineDeployment, aMachineTemplate } from '../testing';
import { deleteOptionsOf, kubectlFor, shellQuote } from './kubectl';
import { defaultPoolObjectNames, nameForVersion, nextRevisionName, versionTokenOf } from './names';
import { checkNameCarriesVersion } from '../rules/validators';
import { applyStep, copyForCreate, createStep, jsonPatchStep, StepError } from './objects';
import { placeholdersOf } from '../i18n/messages';
import { localizePlanMessage, planCatalog, planMessage, planMessages } from './messages';
import type { PatchStep } from './plan';
import { isRolloutInProgress, rolloutImpact } from './rollout';

/** What bash makes of a word built from plain and single-quoted parts (enough for shellQuote). */
function unquote(word: string): string {
  return word.replace(
    /'((?:[^'])*)'|\\(.)/g,
    (_m, quoted: string | undefined, escaped: string | undefined) => quoted ?? escaped ?? '',
  );
}

describe('names', () => {
  it('R-MD-5: the objects of a pool are named after it', () => {
    expect(defaultPoolObjectNames('demo-md-1')).toEqual({
      machineDeployment: 'demo-md-1',
      machineTemplate: 'demo-md-1-template',
      bootstrapTemplate: 'demo-md-1-kct',
      ipPool: 'demo-md-1-ippool',
    });
  });

  it('R-TPL-4: a new revision of a template gets the next free -rN name', () => {
    expect(nextRevisionName('demo-md-0-template', [])).toBe('demo-md-0-template-r2');
    expect(nextRevisionName('demo-md-0-template', ['demo-md-0-template-r2'])).toBe(
      'demo-md-0-template-r3',
    );
    expect(nextRevisionName('demo-md-0-template-r3', ['demo-md-0-template-r4'])).toBe(
      'demo-md-0-template-r5',
    );
    const long = 'x'.repeat(253);
    expect(nextRevisionName(long, [])).toHaveLength(253);
  });

  it('R-MD-5: names derived for a new version carry the new version, not the old one', () => {
    expect(nameForVersion('demo-md-0-v1-34-1-r2', 'v1.35.0', [])).toBe('demo-md-0-v1-35-0');
    expect(nameForVersion('demo-md-0-template-v1-34-1', '1.35.0', [])).toBe(
      'demo-md-0-template-v1-35-0',
    );
    expect(nameForVersion('demo-md-0-template', 'v1.35.0', [])).toBe('demo-md-0-template-v1-35-0');
    expect(nameForVersion('demo-md-0-template-r3', 'v1.35.0', ['demo-md-0-template-v1-35-0'])).toBe(
      'demo-md-0-template-v1-35-0-r2',
    );
    // A number that is not a version stays: only `v<major>-<minor>-<patch>` is one.
    expect(nameForVersion('pool-1-2-3', 'v1.35.0', [])).toBe('pool-1-2-3-v1-35-0');
    expect(versionTokenOf('x-v1-34-1-r2')).toBe('v1-34-1');
    expect(versionTokenOf('xv1-34-1')).toBeUndefined();
    expect(nameForVersion('y'.repeat(253), 'v1.35.0', [])).toHaveLength(253);
  });

  it('R-MD-5: a template named after another version than the one it is made for is flagged', () => {
    expect(checkNameCarriesVersion('demo-v1-34-1-r2', 'v1.35.0', 'machineTemplate.name')).toEqual([
      expect.objectContaining({
        rule: 'R-MD-5',
        severity: 'warning',
        messageKey: 'name.carriesOtherVersion',
      }),
    ]);
    expect(checkNameCarriesVersion('demo-v1-35-0', 'v1.35.0', 'x')).toEqual([]);
    expect(checkNameCarriesVersion('demo-template-r2', 'v1.35.0', 'x')).toEqual([]);
  });
});

describe('rolloutImpact', () => {
  it.each([
    [3, 0, 1, { replaces: 3, atATime: 1 }],
    [3, 1, 0, { replaces: 3, atATime: 1 }],
    [10, '25%', '25%', { replaces: 10, atATime: 5 }],
    [2, 5, 5, { replaces: 2, atATime: 2 }],
    [3, '0%', '0%', { replaces: 3, atATime: 1 }],
    [4, undefined, undefined, { replaces: 4, atATime: 1 }],
    [0, 1, 1, { replaces: 0, atATime: 0 }],
  ] as const)(
    'R-MD-2: %s replicas, maxSurge %s, maxUnavailable %s',
    (replicas, surge, unavailable, expected) => {
      expect(rolloutImpact(replicas, surge, unavailable)).toEqual(expected);
    },
  );

  it('tells a rollout in progress from a settled MachineDeployment', () => {
    expect(isRolloutInProgress(aMachineDeployment())).toBe(false);
    expect(isRolloutInProgress(aMachineDeployment({ status: { updatedReplicas: 1 } }))).toBe(true);
    expect(isRolloutInProgress(aMachineDeployment({ metadata: { generation: 2 } }))).toBe(true);
  });
});

describe('kubectl', () => {
  it('quotes words for the shell only when needed, and exactly', () => {
    expect(shellQuote('demo-md-0')).toBe('demo-md-0');
    expect(shellQuote('a b')).toBe(`'a b'`);
    const nasty = `[{"value":"it's; rm -rf / $(x)"}]`;
    expect(unquote(shellQuote(nasty))).toBe(nasty);
  });

  it('a JSON patch whose values hold quotes still reaches the server byte for byte', () => {
    const md = aMachineDeployment();
    const step = jsonPatchStep(
      md,
      'MachineDeployment',
      [{ op: 'add', path: '/metadata/annotations', value: { note: `it's "x"` } }],
      planMessage('plan.undo.revert', { kind: 'MachineDeployment', name: 'demo-md-0' }),
    );
    const cmd = kubectlFor(step);
    const arg = cmd.slice(cmd.indexOf(' -p ') + 4);
    expect(JSON.parse(unquote(arg))).toEqual(
      step.patch.type === 'json' ? step.patch.ops : undefined,
    );
  });

  it('names that are not plain words are quoted', () => {
    const step = jsonPatchStep(
      aMachineDeployment({ metadata: { name: 'x; echo pwned' } }),
      'MachineDeployment',
      [{ op: 'replace', path: '/spec/replicas', value: 1 }],
      planMessage('plan.undo.revert', { kind: 'MachineDeployment', name: 'x' }),
    );
    expect(kubectlFor(step)).toContain(`machinedeployment 'x; echo pwned' -n cpaas-system`);
  });

  it('an undo of a create deletes with DeleteOptions (the uid is known only when it runs)', () => {
    const step = createStep(
      'DCSMachineTemplate',
      copyForCreate(aMachineTemplate(), 'n'),
      planMessage('plan.step.createMachineTemplate', { name: 'n' }),
    );
    expect(deleteOptionsOf(step.undo)).toEqual({ apiVersion: 'v1', kind: 'DeleteOptions' });
    expect(kubectlFor(step.undo)).toMatch(
      /^kubectl delete --raw \/apis\/infrastructure\.cluster\.x-k8s\.io\/v1beta1\/namespaces\/cpaas-system\/dcsmachinetemplates\/n -f - <<'EOF'\n/,
    );
  });
});

describe('applyStep', () => {
  it('refuses what the API server would refuse', () => {
    const mt = aMachineTemplate();
    const create = createStep(
      'DCSMachineTemplate',
      mt,
      planMessage('plan.step.createMachineTemplate', { name: 'x' }),
    );
    expect(() => applyStep(mt, create)).toThrow(
      expect.objectContaining({ reason: 'AlreadyExists' }),
    );
    const patch: PatchStep = jsonPatchStep(
      mt,
      'DCSMachineTemplate',
      [{ op: 'remove', path: '/spec/nope' }],
      planMessage('plan.undo.revert', { kind: 'x', name: 'x' }),
    );
    expect(() => applyStep(undefined, patch)).toThrow(
      expect.objectContaining({ reason: 'NotFound' }),
    );
    expect(() => applyStep(mt, patch)).toThrow(expect.objectContaining({ reason: 'Invalid' }));
    expect(() => applyStep(mt, { ...create.undo, precondition: { uid: 'other' } })).toThrow(
      StepError,
    );
  });

  it('copyForCreate drops what the server owns and keeps the rest', () => {
    const src = aMachineTemplate({
      metadata: {
        finalizers: ['f'],
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
      },
      status: { x: 1 },
    });
    const copy = copyForCreate(src, 'copy');
    expect(Object.keys(copy)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(copy.metadata).toEqual({ name: 'copy', namespace: 'cpaas-system' });
    expect(copy.spec).toEqual(src.spec);
  });
});

describe('planCatalog', () => {
  const names = (text: string) => placeholdersOf(text).sort();

  it('every text has English and Chinese with the same named placeholders', () => {
    for (const [key, text] of Object.entries(planCatalog)) {
      // `migration`: the texts of the R-DISK-5 migration guide (planners/disk-migration.ts).
      expect(key).toMatch(/^plan\.(step|undo|irreversible|effect|issue|verdict|migration)\./);
      expect(names(text['zh-CN']), key).toEqual(names(text.en));
      expect(text.en).not.toMatch(/\{\d*\}/);
      expect(planMessages[key as keyof typeof planMessages]).toBe(text.en);
    }
  });

  it('counts read in the singular and the plural, in either language', () => {
    const one = planMessage('plan.step.appendIpPool', { name: 'p', count: 1, existing: 3 });
    expect(one.message).toBe('Append 1 entry to IP pool p, keeping its 3 entries');
    const many = planMessage('plan.step.appendIpPool', { name: 'p', count: 2, existing: 1 });
    expect(many.message).toBe('Append 2 entries to IP pool p, keeping its 1 entry');
    expect(localizePlanMessage(one, 'zh-CN')).toBe(
      '向 IP 池 p 追加 1 个条目，保留其已有的 3 个条目',
    );
    const picks = planMessage('plan.effect.randomScaleDown', { name: 'md', count: 1 });
    expect(picks.message).toBe('Cluster API picks 1 machine of md, drains it and deletes its VM');
  });

  it('a plan message reads in either language from its key and params', () => {
    const m = planMessage('plan.step.scale', { name: 'demo-md-0', from: 3, to: 5 });
    expect(m.message).toBe('Change the replicas of demo-md-0 from 3 to 5');
    expect(localizePlanMessage(m, 'zh-CN')).toBe('将 demo-md-0 的副本数从 3 调整为 5');
    expect(
      localizePlanMessage({ messageKey: 'elsewhere', params: {}, message: 'as sent' }, 'zh-CN'),
    ).toBe('as sent');
  });
});
