import { describe, expect, it } from 'vitest';
import { aCreatePoolRequest } from '../testing';
import { requestFieldRule } from './field-rules';
import { requestIssues } from './issues';
import { CreatePoolRequestSchema, PatchIpPoolRequestSchema } from './index';

describe('requestFieldRule: a schema refusal names the domain rule of its field (issue 12)', () => {
  it.each([
    ['replicas', 'R-MD-1'],
    ['strategy.maxSurge', 'R-MD-2'],
    ['nodeDrainTimeout', 'R-MD-7'],
    ['name', 'R-MD-5'],
    ['version', 'R-MD-4'],
    ['machineTemplate.name', 'R-TPL-4'],
    ['bootstrap.name', 'R-BOOT-3'],
    ['ipPool.entries.0.ip', 'R-POOL-3'],
    ['ipPool.entries.0.additionNic.1.ip', 'R-NIC-1'],
    ['append.2.persistentDisk.0.slot', 'R-DISK-1'],
    ['append.2.persistentDisk.0.pciType', 'R-DISK-3'],
    ['update.0.ip', 'R-POOL-4'],
    ['update.0.set.ip', 'R-POOL-3'],
    ['remove.3', 'R-POOL-6'],
    ['deleteMachines.0', 'R-MD-6'],
    ['resourceVersion', 'R-REQUEST'],
    ['ipPool.mode', 'R-REQUEST'],
    ['__proto__', 'R-REQUEST'],
    ['constructor.ip', 'R-POOL-3'],
  ] as const)('%s → %s', (path, rule) => {
    expect(requestFieldRule(path.split('.'))).toBe(rule);
  });

  it('R-MD-1, R-POOL-3: a wrong type at replicas and at an entry’s ip is refused under their rule, at the field', () => {
    const body = aCreatePoolRequest({ replicas: -1 });
    const bad = CreatePoolRequestSchema.safeParse(body);
    expect(bad.success).toBe(false);
    if (!bad.success)
      expect(requestIssues(bad.error, body).map((i) => [i.rule, i.path])).toEqual([
        ['R-MD-1', 'replicas'],
      ]);
    const patch = { resourceVersion: '1', append: [{ ip: 7, mask: '24', gateway: '10.0.0.1' }] };
    const refused = PatchIpPoolRequestSchema.safeParse(patch);
    expect(refused.success).toBe(false);
    if (!refused.success)
      expect(requestIssues(refused.error, patch).map((i) => [i.rule, i.path])).toEqual([
        ['R-POOL-3', 'append.0.ip'],
      ]);
  });
});
