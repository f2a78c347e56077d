import { describe, expect, it } from 'vitest';
import {
  chooseApiVersion,
  hubVersion,
  kindAtVersion,
  spokenVersions,
  VERSIONED_GROUPS,
} from './api-versions';
import { kindTable } from './kinds';

describe('API versions spoken to a management cluster (issue 23)', () => {
  it('every versioned group speaks its hub version, and the hub version is what kindTable says', () => {
    for (const group of VERSIONED_GROUPS) {
      expect(spokenVersions(group)).toContain(hubVersion(group));
    }
    expect(hubVersion('cluster.x-k8s.io')).toBe(kindTable.MachineDeployment.version);
  });

  it('chooses the best spoken version the group serves, none when it serves none of them', () => {
    expect(chooseApiVersion('cluster.x-k8s.io', ['v1beta1'])).toBe('v1beta1');
    // v1.11–v1.15 serve both: v1beta2, the stored one, is spoken; v1.16 serves only v1beta2.
    for (const group of VERSIONED_GROUPS) {
      expect(chooseApiVersion(group, ['v1beta1', 'v1beta2'])).toBe('v1beta2');
      expect(chooseApiVersion(group, ['v1beta2'])).toBe('v1beta2');
    }
    expect(chooseApiVersion('cluster.x-k8s.io', ['v1alpha4'])).toBeUndefined();
    expect(chooseApiVersion('cluster.x-k8s.io', [])).toBeUndefined();
    // The DCS provider's group keeps its own version, whatever Cluster API serves.
    expect(chooseApiVersion('infrastructure.cluster.x-k8s.io', ['v1beta1'])).toBe('v1beta1');
  });

  it('kindAtVersion: the kind with the chosen version of its group; other groups untouched', () => {
    const choice = { 'cluster.x-k8s.io': 'v1beta2' };
    expect(kindAtVersion('Machine', choice)).toMatchObject({
      plural: 'machines',
      version: 'v1beta2',
    });
    expect(kindAtVersion('DCSMachine', choice)).toBe(kindTable.DCSMachine);
    expect(kindAtVersion('Machine', {})).toBe(kindTable.Machine);
    // A choice is our own record: inherited keys are not versions.
    expect(
      kindAtVersion(
        'Machine',
        JSON.parse('{"__proto__": {"cluster.x-k8s.io": "x"}}') as Record<string, string>,
      ),
    ).toBe(kindTable.Machine);
  });
});
