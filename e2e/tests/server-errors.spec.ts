import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, test } from '@playwright/test';
import { errorLog } from '../support/stack';

// Every journey fails when the BFF logs an error while it runs (fixtures/stack.ts,
// serverErrorsChecked): what it counts is pino's JSON lines at level error or above.
test('the stack counts the BFF’s log lines at level error and above, and nothing else', async () => {
  const lines = [
    { level: 30, msg: 'request completed' },
    { level: 40, msg: 'slow upstream' },
    { level: 50, msg: 'unhandled error', err: { message: 'boom' } },
    { level: 60, msg: 'fatal' },
  ]
    .map((l) => JSON.stringify(l))
    .concat(['bff: ready http://127.0.0.1:1', '{not json']);
  const child = spawn(
    process.execPath,
    ['-e', `console.log(${JSON.stringify(lines.join('\n'))})`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const errors = errorLog(child);
  await once(child, 'close');
  const { count, last } = errors();
  expect(count).toBe(2);
  expect(last.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([
    'unhandled error',
    'fatal',
  ]);
});
