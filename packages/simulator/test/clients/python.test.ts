import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WATCH_HISTORY,
  caseFailure,
  requireClient,
  runScript,
  startClientCluster,
  type ClientCluster,
  type ScriptRun,
} from './support';

/**
 * The official Python client (Debian's python3-kubernetes, run by the system's /usr/bin/python3)
 * against the embedded cluster: `python/suite.py`, one case per `it`.
 */

const PYTHON = '/usr/bin/python3';
const present = requireClient(
  'python3-kubernetes',
  [PYTHON, '-c', 'import kubernetes'],
  'apt-get install -y python3-kubernetes',
);

const CASES = [
  'access_reviews',
  'deletion',
  'discovery',
  'error_status',
  'optimistic_concurrency',
  'paging',
  'server_side_apply',
  'status_and_scale',
  'watch_bookmarks',
  'watch_resume_after_410',
];

let env: ClientCluster;
let run: ScriptRun;

describe.runIf(present)('the Python client (python3-kubernetes)', () => {
  beforeAll(async () => {
    env = await startClientCluster('python');
    run = await runScript(PYTHON, [join(import.meta.dirname, 'python', 'suite.py')], {
      KUBECONFIG: env.kubeconfig,
      NAMESPACE: 'cpaas-system',
      WATCH_HISTORY: String(WATCH_HISTORY),
    });
  }, 300_000);
  afterAll(async () => {
    await env.close();
  });

  it('reports every case', () => {
    expect([...run.results.keys()].sort()).toEqual(CASES);
  });
  it.each(CASES)('%s', (name) => {
    expect(caseFailure(run, name)).toBeUndefined();
  });
});
