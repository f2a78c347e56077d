// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../../test/render';
import { OBJECT_EVENTS_FOLLOW_MIN_MS } from '../api/get-object-events';
import { ObjectEvents } from './ObjectEvents';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const entry = (reason: string) => ({
  source: 'event',
  time: '2026-01-01T10:00:00Z',
  severity: 'info',
  reason,
  message: `${reason} happened`,
  object: 'Machine/m-1',
});

/** The BFF's events answer, one more Event on each read; the reads counted. */
function stubEvents() {
  let reads = 0;
  vi.stubGlobal('fetch', () => {
    reads++;
    const entries = Array.from({ length: reads }, (_, i) => entry(`Reason${String(i + 1)}`));
    return Promise.resolve(
      new Response(
        JSON.stringify({
          entries,
          facets: { types: { Normal: entries.length, Warning: 0 }, reasons: [] },
          matching: entries.length,
          sources: { events: 'ok', eventsV1: 'ok' },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      ),
    );
  });
  return () => reads;
}

describe('ObjectEvents follows its object (issue 26 item 7: live)', () => {
  it('reads the list again soon after the followed object changes, not only at the next poll', async () => {
    const reads = stubEvents();
    const source = { objects: ['Machine/m-1'] };
    function Page() {
      const [machine, setMachine] = useState({ rv: '1' });
      return (
        <>
          <button
            onClick={() => {
              setMachine({ rv: '2' });
            }}
          >
            change
          </button>
          <ObjectEvents namespace="cpaas-system" source={source} follow={machine} />
        </>
      );
    }
    renderInApp(<Page />);
    await screen.findByText('Reason1 happened');
    expect(reads()).toBe(1);
    // The object changed on the stream (a new view): read again, well before the 5 s poll.
    fireEvent.click(screen.getByRole('button', { name: 'change' }));
    await waitFor(
      () => {
        expect(reads()).toBe(2);
      },
      { timeout: OBJECT_EVENTS_FOLLOW_MIN_MS + 1500 },
    );
    await screen.findByText('Reason2 happened');
  });
});
