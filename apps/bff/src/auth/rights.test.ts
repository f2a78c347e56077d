import { describe, expect, it } from 'vitest';
import { RIGHTS } from '@dcs/domain';
import { rightsOf } from './rights';

describe('rightsOf', () => {
  it('allows every right when no review refused', () => {
    const rights = rightsOf([]);
    expect(Object.keys(rights).sort()).toEqual(Object.keys(RIGHTS).sort());
    expect(Object.values(rights).every((r) => r.allowed)).toBe(true);
  });

  it('refuses each right that needs a refused review, naming it with the review’s reason', () => {
    const rights = rightsOf([
      {
        verb: 'create',
        kind: 'DCSMachineTemplate',
        namespace: 'cpaas-system',
        reason: 'denied by policy "no-templates"',
      },
    ]);
    const denied = {
      allowed: false,
      denied: [
        {
          verb: 'create',
          kind: 'DCSMachineTemplate',
          group: 'infrastructure.cluster.x-k8s.io',
          resource: 'dcsmachinetemplates',
          namespace: 'cpaas-system',
          reason: 'denied by policy "no-templates"',
        },
      ],
    };
    expect(rights.createPool).toEqual(denied);
    expect(rights.upgrade).toEqual(denied);
    expect(rights.upgradeControlPlane).toEqual(denied);
    expect(rights.scale).toEqual({ allowed: true });
    expect(rights.editBootstrap).toEqual({ allowed: true });
  });
});
