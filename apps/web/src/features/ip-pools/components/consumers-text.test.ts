import type { IpPoolConsumer } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../../../i18n/en';
import { fill } from '../../../i18n/locale';
import { zhCN } from '../../../i18n/zh-CN';
import { consumersText } from './consumers-text';

const consumers: IpPoolConsumer[] = [
  {
    kind: 'KubeadmControlPlane',
    deployment: 'demo-control-plane',
    cluster: 'demo',
    replicas: 3,
    maxSurgeResolved: 1,
  },
  {
    kind: 'MachineDeployment',
    deployment: 'demo-md-0',
    cluster: 'demo',
    replicas: 2,
    maxSurgeResolved: 0,
  },
];

describe('consumersText (R-POOL-1: who uses an IP pool)', () => {
  it('names the control plane as a user, in the user’s language', () => {
    const t =
      (dict: Record<MessageKey, string>) =>
      (key: MessageKey, p?: Record<string, string | number>) =>
        fill(dict[key], p);
    expect(consumersText(consumers, t(en))).toBe('Control plane of demo (3), demo-md-0 (2)');
    expect(consumersText(consumers, t(zhCN))).toBe('demo 的控制平面 (3), demo-md-0 (2)');
    expect(consumersText([], t(en))).toBe('—');
  });
});
