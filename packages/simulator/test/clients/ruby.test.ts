import { join } from 'node:path';
import { describeScriptSuite, requireClient } from './support';

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

describeScriptSuite({
  title: 'the Ruby client (ruby-kubeclient)',
  present,
  cluster: 'ruby',
  command: RUBY,
  args: [join(import.meta.dirname, 'ruby', 'suite.rb')],
  cases: CASES,
});
