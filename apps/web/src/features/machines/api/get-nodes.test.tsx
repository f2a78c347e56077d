// @vitest-environment happy-dom
import type { MachineView } from '@dcs/domain';
import { act, cleanup } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aMachineView } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { useClusterNodes } from './get-nodes';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Counts the BFF's `…/nodes` requests. */
function stubNodes(): { calls: () => number } {
  let n = 0;
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes('/nodes')) n += 1;
    return Promise.resolve(
      new Response(JSON.stringify({ status: 'ok', secret: 's', nodes: [] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  return { calls: () => n };
}

function Probe({ machines }: { machines: readonly MachineView[] }) {
  // No poll during the test (it counts requests): only the follow-up asks.
  useClusterNodes('cpaas-system', 'demo', machines, 10 * 60_000);
  return null;
}

describe('the Node column follows the machines (issue 12)', () => {
  it('asks for the Nodes again when a machine gets its nodeRef or starts deleting, not on other changes', async () => {
    const api = stubNodes();
    const m = aMachineView('demo-md-0-abc12-m1');
    let set: (machines: readonly MachineView[]) => void = () => undefined;
    function Harness() {
      const [machines, setMachines] = useState<readonly MachineView[]>([m]);
      set = setMachines;
      return <Probe machines={machines} />;
    }
    renderInApp(<Harness />);
    const rerender = (machines: readonly MachineView[]) => {
      act(() => {
        set(machines);
      });
    };
    await vi.waitFor(() => {
      expect(api.calls()).toBe(1);
    });
    // A change outside the join (the phase): no request.
    rerender([{ ...m, phase: 'Provisioned' }]);
    await new Promise((r) => setTimeout(r, 300));
    expect(api.calls()).toBe(1);
    // The machine starts deleting: the Nodes are asked for again.
    rerender([{ ...m, deleting: true }]);
    await vi.waitFor(
      () => {
        expect(api.calls()).toBe(2);
      },
      { timeout: 10_000 },
    );
    // Right after, a new nodeRef: throttled (NODES_FOLLOW_MIN_MS), then asked for once more.
    rerender([{ ...m, deleting: true, nodeName: 'other' }]);
    expect(api.calls()).toBe(2);
    await vi.waitFor(
      () => {
        expect(api.calls()).toBe(3);
      },
      { timeout: 10_000 },
    );
  });
});
