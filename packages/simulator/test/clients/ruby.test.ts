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
 * Ruby's kubeclient (Debian's ruby-kubeclient, run by the system's /usr/bin/ruby) against the
 * embedded cluster: `ruby/suite.rb`, one case per `it`. kubeclient watches through the
 * deprecated `/watch/` path prefix and has no bookmarks parameter.
 */

const RUBY = '/usr/bin/ruby';
const present = requireClient(
  'ruby-kubeclient',
  [RUBY, '-e', 'require "kubeclient"'],
  'apt-get install -y ruby-kubeclient',
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
  'watch',
  'watch_resume_after_410',
];

let env: ClientCluster;
let run: ScriptRun;

describe.runIf(present)('the Ruby client (ruby-kubeclient)', () => {
  beforeAll(async () => {
    env = await startClientCluster('ruby');
    run = await runScript(RUBY, [join(import.meta.dirname, 'ruby', 'suite.rb')], {
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
