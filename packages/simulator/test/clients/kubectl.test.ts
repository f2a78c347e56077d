import { join } from 'node:path';
import { describeScriptSuite, requireClient } from './support';

/**
 * kubectl against the embedded cluster: `kubectl/suite.sh`, one case per `it`, with the newest
 * kubectl (`/usr/bin/kubectl`, or `$KUBECTL`) and with Debian's kubernetes-client 1.20, kept
 * beside it in /opt/kubectl-1.20 (or `$KUBECTL_1_20`) since its package would replace
 * /usr/bin/kubectl. Each runs on a cluster of its own.
 */

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

const KUBECTLS = [
  {
    name: 'the newest kubectl',
    bin: process.env.KUBECTL ?? '/usr/bin/kubectl',
    install: 'apt-get install -y kubectl (or set KUBECTL)',
  },
  {
    name: "Debian's kubectl 1.20 (kubernetes-client)",
    bin: process.env.KUBECTL_1_20 ?? '/opt/kubectl-1.20/usr/bin/kubectl',
    install:
      'cd /tmp && apt-get download kubernetes-client && dpkg -x kubernetes-client_*.deb /opt/kubectl-1.20',
  },
];

for (const kubectl of KUBECTLS) {
  const present = requireClient(
    kubectl.name,
    [kubectl.bin, 'version', '--client'],
    kubectl.install,
  );
  describeScriptSuite({
    title: kubectl.name,
    present,
    cluster: 'kubectl',
    command: 'bash',
    args: [join(import.meta.dirname, 'kubectl', 'suite.sh')],
    cases: CASES,
    env: (env) => ({ KUBECTL: kubectl.bin, HOME: env.dir }),
  });
}
