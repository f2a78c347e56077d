import { describe, expect, it } from 'vitest';
import { aValidationContext, anIpEntry } from '../testing';
import type { RuleIssue } from './issue';
import {
  checkPersistentDiskSupport,
  checkProviderForWebWorkflow,
  providerSupportsPersistentDisks,
} from './version';
import { expectIssues } from './test-support';

function table(
  rule: string,
  cases: readonly { name: string; run: () => RuleIssue[]; expected: string[] }[],
) {
  for (const c of cases) {
    it(`${rule}: ${c.name}`, () => {
      expectIssues(c.run(), c.expected);
    });
  }
}

const at = (providerVersion: string | undefined) => aValidationContext({ providerVersion });

describe('R-VER-1 the web workflow', () => {
  table('R-VER-1', [
    {
      name: 'accepts provider 1.0.13',
      run: () => checkProviderForWebWorkflow(at('1.0.13')),
      expected: [],
    },
    {
      name: 'accepts provider 1.1.0',
      run: () => checkProviderForWebWorkflow(at('1.1.0')),
      expected: [],
    },
    {
      name: 'accepts a v-prefixed version',
      run: () => checkProviderForWebWorkflow(at('v1.0.16')),
      expected: [],
    },
    {
      name: 'rejects provider 1.0.12 (YAML workflow)',
      run: () => checkProviderForWebWorkflow(at('1.0.12')),
      expected: ['error R-VER-1  version.webWorkflowUnsupported'],
    },
    {
      name: 'rejects a pre-release of 1.0.12',
      run: () => checkProviderForWebWorkflow(at('1.0.12-rc.1')),
      expected: ['error R-VER-1  version.webWorkflowUnsupported'],
    },
    {
      name: 'warns when the version is unknown',
      run: () => checkProviderForWebWorkflow(at(undefined)),
      expected: ['warning R-VER-1  version.providerUnknown'],
    },
  ]);
});

describe('R-VER-2 pool-managed persistent disks', () => {
  table('R-VER-2', [
    {
      name: 'accepts persistent disks with provider 1.0.16',
      run: () => checkPersistentDiskSupport([anIpEntry(1)], at('1.0.16'), 'entries'),
      expected: [],
    },
    {
      name: 'rejects persistent disks with provider 1.0.15',
      run: () =>
        checkPersistentDiskSupport(
          [anIpEntry(1), anIpEntry(2, { persistentDisk: [] })],
          at('1.0.15'),
          'entries',
        ),
      expected: ['error R-VER-2 entries.0.persistentDisk version.persistentDisksUnsupported'],
    },
    {
      name: 'accepts entries without persistent disks on 1.0.13',
      run: () =>
        checkPersistentDiskSupport([anIpEntry(1, { persistentDisk: [] })], at('1.0.13'), 'entries'),
      expected: [],
    },
  ]);

  it('R-VER-2: an unknown provider version is assumed to support them (R-VER-1 warns)', () => {
    expect(providerSupportsPersistentDisks(at(undefined))).toBe(true);
    expect(providerSupportsPersistentDisks(at('1.0.15'))).toBe(false);
  });
});
