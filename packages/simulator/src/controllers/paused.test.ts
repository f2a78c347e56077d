import { ANNOTATION_PAUSED } from '@dcs/domain';
import { aCluster, aMachineDeployment } from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { v2 } from '../logic/v1beta2';
import { isPaused, pauseDrifted, PausedKeys } from './paused';

const withPaused = (status: 'True' | 'False', name = 'demo-md-0') =>
  aMachineDeployment({
    metadata: { name },
    status: {
      v1beta2: {
        conditions: [
          { ...v2('Paused', status, status === 'True' ? 'Paused' : 'NotPaused'), message: '' },
        ],
      },
    },
  });

describe('pausing (util/paused)', () => {
  it('annotations.IsPaused: the Cluster’s spec.paused, or the object’s annotation whatever its value', () => {
    const md = aMachineDeployment();
    expect(isPaused(md, aCluster())).toBe(false);
    expect(isPaused(md, aCluster({ spec: { paused: true } }))).toBe(true);
    const annotated = aMachineDeployment({
      metadata: { annotations: { [ANNOTATION_PAUSED]: '' } },
    });
    expect(isPaused(annotated, undefined)).toBe(true);
  });

  it('ClusterPausedTransitions: a Cluster change wakes only the objects whose Paused condition it contradicts', () => {
    const notPaused = withPaused('False', 'a');
    const paused = withPaused('True', 'b');
    const none = aMachineDeployment({ metadata: { name: 'c' } });
    const names = (c: Parameters<typeof pauseDrifted>[1]) =>
      pauseDrifted([notPaused, paused, none], c).map((o) => o.metadata.name);
    expect(names(aCluster({ spec: { paused: true } }))).toEqual(['a', 'c']);
    expect(names(aCluster())).toEqual(['b']);
  });

  it('PausedKeys: what was skipped while paused is woken once its cluster is resumed, once', () => {
    const keys = new PausedKeys();
    const md = aMachineDeployment();
    const paused = aCluster({ spec: { paused: true } });
    expect(keys.skip('ns/x', 'cpaas-system/demo', md, paused)).toBe(true);
    expect(keys.wake(paused)).toEqual([]);
    const resumed = aCluster();
    expect(keys.wake(resumed)).toEqual(['ns/x']);
    expect(keys.wake(resumed)).toEqual([]);
    expect(keys.skip('ns/x', 'cpaas-system/demo', md, resumed)).toBe(false);
  });
});
