// @vitest-environment happy-dom
import type { IpPoolEntry, RuleIssue } from '@dcs/domain';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInApp } from '../test/render';
import { IpEntriesEditor } from './IpEntriesEditor';

afterEach(cleanup);

/** An R-POOL-3 stand-in: every entry whose ip is not an IPv4 address is an error at its ip. */
function issuesOf(entries: readonly IpPoolEntry[]): RuleIssue[] {
  return entries.flatMap((e, i) =>
    /^\d+\.\d+\.\d+\.\d+$/.test(e.ip)
      ? []
      : [
          {
            rule: 'R-POOL-3',
            path: `entries.${String(i)}.ip`,
            severity: 'error' as const,
            messageKey: 'pool.ipInvalid',
            params: { ip: e.ip },
            message: `ip "${e.ip}" is not an IPv4 address`,
          },
        ],
  );
}

function Harness({ start }: { start: IpPoolEntry[] }) {
  const [entries, setEntries] = useState<IpPoolEntry[]>(start);
  return (
    <IpEntriesEditor
      label="Entries"
      entries={entries}
      onChange={setEntries}
      issues={issuesOf(entries)}
      basePath="entries"
    />
  );
}

describe('IpEntriesEditor (R-POOL-3)', () => {
  it('R-POOL-3: a fresh row shows no error until edited; rows the user had keep theirs', () => {
    renderInApp(<Harness start={[{ ip: 'bad', mask: '24', gateway: '10.0.0.1' }]} />);
    const first = screen.getByRole('textbox', { name: 'IP (Entry 1)' });
    expect(first.getAttribute('aria-invalid')).toBe('true');
    // A pool without an address to continue from: the new row's ip is empty, an error once edited.
    fireEvent.click(screen.getByRole('button', { name: 'Add entry' }));
    const second = screen.getByRole<HTMLInputElement>('textbox', { name: 'IP (Entry 2)' });
    expect(second.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText(/ip "" is not an IPv4 address/)).toBeNull();
    fireEvent.change(second, { target: { value: '10.0' } });
    expect(second.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/ip "10.0" is not an IPv4 address/)).toBeTruthy();
  });

  it('R-POOL-3: removing a row above keeps a fresh row fresh', () => {
    renderInApp(<Harness start={[{ ip: 'bad', mask: '24', gateway: '10.0.0.1' }]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add entry' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add entry' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove entry 1' }));
    for (const n of [1, 2]) {
      const ip = screen.getByRole('textbox', { name: `IP (Entry ${String(n)})` });
      expect(ip.getAttribute('aria-invalid')).toBe('false');
    }
  });
});
