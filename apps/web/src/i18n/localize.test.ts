import { formatMessage, planMessage } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { localizerFor } from './localize';
import { zhCNPack } from './pack-zh-CN';
import { ENGLISH, loadedPack, loadPack } from './packs';

describe('localizerFor', () => {
  const zh = localizerFor('zh-CN', zhCNPack);
  const english = localizerFor('en', ENGLISH);

  it('gives plan steps, effects and planner issues in the user’s language', () => {
    const step = planMessage('plan.step.scale', { name: 'demo-md-0', from: 3, to: 5 });
    expect(zh(step)).toBe('将 demo-md-0 的副本数从 3 调整为 5');
    expect(english(step)).toBe(step.message);
    const stale = planMessage('plan.issue.stale', {
      kind: 'MachineDeployment',
      name: 'demo-md-0',
      seen: '1',
      current: '2',
    });
    expect(zh(stale)).not.toBe(stale.message);
    expect(zh(stale)).toContain('demo-md-0');
  });

  it('gives rule issues, view texts and the console’s own keys from their catalogs', () => {
    const rule = {
      messageKey: 'pool.ipInvalid',
      params: { value: '10.0.1' },
      message: 'ip "10.0.1" is not an IPv4 address',
    };
    expect(zh(rule)).toContain('不是有效的 IPv4 地址');
    expect(zh({ messageKey: 'view.status.Running', params: {}, message: 'Running' })).toBe(
      '运行中',
    );
    expect(zh({ messageKey: 'plan.title', params: {}, message: 'Plan' })).toBe('计划');
  });

  it('gives English rule texts as domain filled them in, without the rules’ catalog', () => {
    const params = { entries: 1, demand: 3, missing: 2, pool: 'ips' };
    const rule = {
      messageKey: 'pool.demandExceedsEntries',
      params,
      message: formatMessage('pool.demandExceedsEntries', params, 'en'),
    };
    expect(english(rule)).toBe(rule.message);
    expect(english(rule)).toContain('has 1 entry');
    // View texts the console builds itself (a status chip) still come from the views' catalog.
    expect(english({ messageKey: 'view.status.ScalingUp', params: {}, message: 'ScalingUp' })).toBe(
      'Scaling up',
    );
  });

  it('keeps the English text of a key no catalog knows', () => {
    expect(zh({ messageKey: 'elsewhere.unknown', params: {}, message: 'as sent' })).toBe('as sent');
    expect(english({ messageKey: 'elsewhere.unknown', params: {}, message: 'as sent' })).toBe(
      'as sent',
    );
  });
});

describe('language packs (issue 14: only English in the first load)', () => {
  it('has English at once and loads Chinese on demand, once', async () => {
    expect(loadedPack('en')).toBe(ENGLISH);
    const first = loadPack('zh-CN');
    const second = loadPack('zh-CN');
    expect(await first).toBe(zhCNPack);
    expect(await second).toBe(zhCNPack);
    expect(loadedPack('zh-CN')).toBe(zhCNPack);
  });
});
