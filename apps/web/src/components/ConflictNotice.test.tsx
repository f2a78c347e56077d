// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-client';
import { conflictOf } from '../lib/conflict';
import { renderInApp } from '../test/render';
import { ConflictNotice } from './ConflictNotice';

afterEach(cleanup);

const stale = {
  rule: 'R-PLAN-STALE' as const,
  path: 'resourceVersion',
  severity: 'error' as const,
  messageKey: 'bff.conflict',
  params: { kind: 'MachineDeployment', name: 'demo-md-0', seen: '10', current: '11' },
  message: 'MachineDeployment demo-md-0 was changed by someone else since you loaded it',
};
const conflict = conflictOf(
  new ApiError(409, 'Conflict', stale.message, [stale], {
    conflict: {
      base: { spec: { replicas: 4 } },
      theirs: { spec: { replicas: 5 } },
      yours: { spec: { replicas: 6 } },
      fields: ['/spec/replicas'],
    },
  }),
);

describe('ConflictNotice', () => {
  it('R-POOL-4: shows what the other person changed and offers to re-apply', () => {
    const onReapply = vi.fn();
    renderInApp(<ConflictNotice conflict={conflict} onReapply={onReapply} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('/spec/replicas: 4 → 5');
    expect(alert.textContent).toContain('Fields both of you changed: /spec/replicas');
    fireEvent.click(screen.getByRole('button', { name: 'Re-apply my change' }));
    expect(onReapply).toHaveBeenCalledOnce();
  });

  it('says what happened in Chinese', () => {
    renderInApp(<ConflictNotice conflict={conflict} />, { locale: 'zh-CN' });
    expect(screen.getByRole('alert').textContent).toContain(
      '自你加载以来，MachineDeployment demo-md-0 已被其他人修改（resourceVersion 10 → 11）',
    );
  });
});
