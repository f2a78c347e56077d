import { planMessage } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { localizerFor } from './localize';
import { zhCN } from './zh-CN';

describe('localizerFor', () => {
  const zh = localizerFor('zh-CN', zhCN);
  const english = localizerFor('en', en);

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

  it('keeps the English text of a key no catalog knows', () => {
    expect(zh({ messageKey: 'elsewhere.unknown', params: {}, message: 'as sent' })).toBe('as sent');
  });
});
