/**
 * The server under benchmark, alone in its process so that its CPU and RSS are its own: the load
 * comes from other processes over loopback. The orchestrator drives it over IPC: phase start/end
 * (CPU time used, and a CPU profile per phase when BENCH_CPU_PROFILE names a directory), memory
 * after a full GC, close. Run with --expose-gc.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { startApiServer } from '../src/index';
import { machineKind } from '../test/support/kinds';
import {
  BENCH_NAMESPACE,
  BENCH_TOKEN,
  WATCH_NAMESPACE,
  loopDelayMonitor,
  type LoopDelay,
  type ServerCommand,
  type ServerReply,
} from './shared';

const send = (m: ServerReply) => process.send?.(m);

const server = await startApiServer({
  tls: false,
  kinds: [machineKind],
  tokens: [{ token: BENCH_TOKEN, user: 'bench' }],
  namespaces: [BENCH_NAMESPACE, WATCH_NAMESPACE],
  ...(process.env.BENCH_WATCH_FLUSH_MS
    ? { watchFlushIntervalMs: Number(process.env.BENCH_WATCH_FLUSH_MS) }
    : {}),
});
// The load runs as an ordinary user, so every request goes through RBAC as a real client's does.
for (const namespace of [BENCH_NAMESPACE, WATCH_NAMESPACE]) {
  await server.client.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'bench-edit', namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bench' }],
  });
}

const profileDir = process.env.BENCH_CPU_PROFILE;
let session: Session | undefined;
let phase = '';
let cpuAtStart = process.cpuUsage();
let loopDelay: () => LoopDelay = loopDelayMonitor();

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error('run the server process with --expose-gc');
  // Twice: the first pass may only schedule finalizers that free more on the second.
  g();
  g();
}

async function handle(cmd: ServerCommand): Promise<ServerReply> {
  switch (cmd.type) {
    case 'phase-start':
      phase = cmd.phase;
      if (profileDir) {
        if (!session) {
          session = new Session();
          session.connect();
          await session.post('Profiler.enable');
        }
        await session.post('Profiler.start');
      }
      cpuAtStart = process.cpuUsage();
      loopDelay = loopDelayMonitor();
      return { id: cmd.id, type: 'ok' };
    case 'phase-end': {
      const used = process.cpuUsage(cpuAtStart);
      const reply: ServerReply = {
        id: cmd.id,
        type: 'phase',
        cpuMs: (used.user + used.system) / 1000,
        loopDelay: loopDelay(),
      };
      if (session && profileDir) {
        const { profile } = await session.post('Profiler.stop');
        const file = join(profileDir, `${phase}.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        reply.profile = file;
      }
      return reply;
    }
    case 'memory': {
      gc();
      const m = process.memoryUsage();
      return { id: cmd.id, type: 'memory', rss: m.rss, heapUsed: m.heapUsed, external: m.external };
    }
    case 'close':
      await server.close();
      return { id: cmd.id, type: 'ok' };
  }
}

process.on('message', (cmd: ServerCommand) => {
  void handle(cmd).then((reply) => {
    send(reply);
    if (cmd.type === 'close') process.disconnect();
  });
});
send({ type: 'ready', url: server.url });
