// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { conflictOf } from '../lib/conflict';
import { aConflictError } from '../test/api';
import { renderInApp } from '../test/render';
import { ConflictNotice } from './ConflictNotice';

afterEach(cleanup);

const conflict = conflictOf(aConflictError());

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
