import { join } from 'node:path';
import { describeScriptSuite, requireClient } from './support';

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
  'impersonation',
  'optimistic_concurrency',
  'paging',
  'server_side_apply',
  'status_and_scale',
  'watch_bookmarks',
  'watch_resume_after_410',
];

describeScriptSuite({
  title: 'the Python client (python3-kubernetes)',
  present,
  cluster: 'python',
  command: PYTHON,
  args: [join(import.meta.dirname, 'python', 'suite.py')],
  cases: CASES,
});
