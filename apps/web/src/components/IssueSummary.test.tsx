// @vitest-environment happy-dom
import type { RuleIssue } from '@dcs/domain';
import { TextField } from '@mui/material';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInApp } from '../test/render';
import { useFieldIssues } from './FieldIssues';
import { focusFirstProblem, IssueScope, UnshownIssues } from './IssueSummary';

afterEach(cleanup);

const issue = (path: string, message: string): RuleIssue => ({
  rule: 'R-DISK-5',
  path,
  severity: 'error',
  messageKey: 'test.unknownKey',
  params: {},
  message,
});

/** A form of one field (`name`) that may be hidden, and a summary of what no field shows. */
function Form({ issues }: { issues: RuleIssue[] }) {
  const ref = useRef<HTMLFormElement>(null);
  const [withField, setWithField] = useState(true);
  return (
    <IssueScope>
      <form ref={ref}>
        {withField && <NameField issues={issues} />}
        <UnshownIssues issues={issues} />
        <button
          type="button"
          onClick={() => {
            focusFirstProblem(ref.current);
          }}
        >
          {issues.length} problems to fix
        </button>
        <button
          type="button"
          onClick={() => {
            setWithField(false);
          }}
        >
          hide the field
        </button>
      </form>
    </IssueScope>
  );
}

function NameField({ issues }: { issues: RuleIssue[] }) {
  const field = useFieldIssues(issues);
  return <TextField label="Name" {...field('name')} />;
}

describe('every counted problem is shown at a field or in the summary', () => {
  it('lists the issues that no field shows, and only those', () => {
    renderInApp(
      <Form
        issues={[
          issue('name', 'The name is wrong.'),
          issue('ipPool.entries.0.persistentDisk', '/var/cpaas is required.'),
        ]}
      />,
    );
    const list = screen.getByRole('list');
    expect(list.textContent).toContain('/var/cpaas is required.');
    expect(list.textContent).not.toContain('The name is wrong.');
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBe('true');
    // A field that goes away hands its issues to the summary.
    fireEvent.click(screen.getByRole('button', { name: 'hide the field' }));
    expect(screen.getByRole('list').textContent).toContain('The name is wrong.');
  });

  it('"N problems to fix" leads to the first field with a problem, else to the summary', () => {
    renderInApp(<Form issues={[issue('name', 'The name is wrong.')]} />);
    fireEvent.click(screen.getByRole('button', { name: /problems to fix/ }));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
    cleanup();

    renderInApp(<Form issues={[issue('ipPool.entries.0.persistentDisk', 'Nowhere else.')]} />);
    expect(screen.queryByRole('list')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /problems to fix/ }));
    expect(document.activeElement?.textContent).toContain('Nowhere else.');
  });
});
