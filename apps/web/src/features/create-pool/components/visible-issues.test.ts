import type { RuleIssue } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { markedPaths, visibleIssues } from './visible-issues';

const issue = (path: string): RuleIssue => ({
  rule: 'R-POOL-1',
  path,
  severity: 'error',
  messageKey: 'pool.demandExceedsEntries',
  params: {},
  message: path,
});

describe('visibleIssues (U-4: messages once a field is edited or a submit was tried)', () => {
  const issues = [issue('name'), issue('ipPool.entries'), issue('ipPool.entries.1.ip'), issue('')];

  it('shows nothing on an untouched form', () => {
    expect(visibleIssues(issues, { submitted: false, edited: [] })).toEqual([]);
  });

  it('shows a field’s issues once it, a field within it or its block was edited', () => {
    const at = (edited: string[]) =>
      visibleIssues(issues, { submitted: false, edited }).map((i) => i.path);
    expect(at(['name'])).toEqual(['name']);
    expect(at(['ipPool.entries.0.ip'])).toEqual(['ipPool.entries']);
    expect(at(['ipPool'])).toEqual(['ipPool.entries', 'ipPool.entries.1.ip']);
    expect(at(['names'])).toEqual([]);
  });

  it('shows every issue after a submit was tried', () => {
    expect(visibleIssues(issues, { submitted: true, edited: [] })).toHaveLength(4);
  });

  it('reads the paths of react-hook-form’s touched and dirty trees', () => {
    expect(
      markedPaths({ name: true, replicas: false, ipPool: { entries: [{ ip: true }, undefined] } }),
    ).toEqual(['name', 'ipPool.entries.0.ip']);
  });
});
