// @vitest-environment happy-dom
import { poolMergedIssue, type Plan } from '@dcs/domain';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInApp } from '../test/render';
import { MergeNotice } from './MergeNotice';

afterEach(cleanup);

const applied = (): Plan => ({
  operation: 'O-EDIT-IP-POOL',
  namespace: 'cpaas-system',
  target: { kind: 'DCSIpHostnamePool', name: 'spare-pool' },
  steps: [],
  kubectl: [],
  diffs: [],
  effects: {},
  issues: [
    poolMergedIssue(
      'spare-pool',
      '10',
      '12',
      { added: ['10.0.0.43'], removed: [], changed: ['10.0.0.41'], otherFields: false },
      'resourceVersion',
    ),
  ],
});

describe('MergeNotice (R-POOL-4)', () => {
  it('says after Apply what the edit was merged with, in English and Chinese', () => {
    renderInApp(<MergeNotice plan={applied()} />, { locale: 'en' });
    const en = screen.getByRole('alert').textContent;
    expect(en).toContain('IP pool spare-pool was changed by someone else');
    expect(en).toContain('entries they added: 10.0.0.43; removed: —; changed: 10.0.0.41');
    cleanup();
    renderInApp(<MergeNotice plan={applied()} />, { locale: 'zh-CN' });
    expect(screen.getByRole('alert').textContent).toContain('对方添加的条目：10.0.0.43');
  });

  it('shows nothing when nothing was merged', () => {
    renderInApp(<MergeNotice plan={{ ...applied(), issues: [] }} />, { locale: 'en' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
