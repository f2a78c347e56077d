/**
 * A server in a child process with a state file, for the kill -9 test: prints its URL, then serves
 * until killed.
 */
import { startApiServer } from '../../src/index';
import { testKinds } from './kinds';

const statePath = process.argv[2];
if (!statePath) throw new Error('usage: child-server.ts STATE_FILE');
const server = await startApiServer({
  tls: false,
  kinds: testKinds,
  statePath,
  tokens: [{ token: 'admin', user: 'admin', groups: ['system:masters'] }],
});
console.log(`URL ${server.url}`);
