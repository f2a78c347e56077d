import { describe, expect, it } from 'vitest';
import { ANNOTATION_PAUSED } from '../labels';
import { aCluster, aMachineDeployment } from '../testing';
import { pauseView } from './pause';

describe('pauseView (issue 26: the Paused chip and its cause)', () => {
  it('R-PAUSE-1: paused through the cluster, through its own annotation, or not at all', () => {
    const md = aMachineDeployment();
    expect(pauseView(md, aCluster())).toEqual({
      paused: false,
      byCluster: false,
      byAnnotation: false,
    });
    expect(pauseView(md, aCluster({ spec: { paused: true } }))).toMatchObject({
      paused: true,
      byCluster: true,
      byAnnotation: false,
    });
    const annotated = aMachineDeployment({
      metadata: { annotations: { [ANNOTATION_PAUSED]: '' } },
    });
    expect(pauseView(annotated, aCluster())).toMatchObject({ paused: true, byAnnotation: true });
    // MachineDeployment v1beta1 spec.paused: paused, but not by what O-RESUME removes.
    expect(pauseView(md, aCluster(), true)).toMatchObject({ paused: true, byAnnotation: false });
  });

  it('carries the v1beta2 Paused condition, whose message names the cause', () => {
    const md = aMachineDeployment({
      status: {
        v1beta2: {
          conditions: [
            {
              type: 'Paused',
              status: 'True',
              reason: 'Paused',
              message: 'Cluster spec.paused is set to true',
              lastTransitionTime: '2026-12-01T10:00:00Z',
            },
          ],
        },
      },
    });
    expect(pauseView(md, aCluster({ spec: { paused: true } })).condition).toEqual({
      status: 'True',
      reason: 'Paused',
      message: 'Cluster spec.paused is set to true',
    });
  });
});
