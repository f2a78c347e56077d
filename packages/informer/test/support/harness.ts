import { afterEach } from 'vitest';
import { Informer } from '../../src/informer';
import type { KubeObject } from '../../src/kube-object';
import type { InformerOptions } from '../../src/options';
import type { ResourceSpec } from '../../src/resource';
import { FakeApiServer, type FakeServerOptions, machines } from './fake-apiserver';

/** Things to stop after each test, newest first. */
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function startServer(options: FakeServerOptions = {}): Promise<FakeApiServer> {
  const server = await FakeApiServer.start(options);
  cleanups.push(() => server.close());
  return server;
}

/** Fast knobs for tests: millisecond backoff, no alarm unless a test asks for one. */
export const fast: InformerOptions = {
  staleAfterMs: 0,
  backoff: { initialMs: 10, maxMs: 50, jitter: 0 },
};

export const machineSpec: ResourceSpec = {
  group: machines.group,
  version: machines.version,
  plural: machines.plural,
};

export function startInformer(
  server: FakeApiServer,
  options: InformerOptions = {},
  spec: ResourceSpec = machineSpec,
): Informer {
  const informer = new Informer(server.kubeConfig(), spec, { ...fast, ...options });
  cleanups.push(() => informer.stop());
  return informer.start();
}

export function onCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

const label = (o: KubeObject): string =>
  `${o.metadata?.name ?? '?'}@${o.metadata?.resourceVersion ?? '?'}`;

/** Records handler calls as readable lines; checks the store was updated before each call. */
export function record(informer: Informer, options: { replay?: boolean } = {}): string[] {
  const log: string[] = [];
  const cached = (o: KubeObject): KubeObject | undefined =>
    informer.get(o.metadata?.namespace, o.metadata?.name ?? '');
  informer.addEventHandler(
    {
      add: (o) => {
        if (cached(o) !== o) log.push(`!store not updated before add ${label(o)}`);
        log.push(`add ${label(o)}`);
      },
      update: (o, old) => {
        if (cached(o) !== o) log.push(`!store not updated before update ${label(o)}`);
        log.push(`update ${label(o)} (was ${label(old)})`);
      },
      delete: (o, old, finalStateUnknown) => {
        // The name may already hold a re-created object (new uid), never the deleted one.
        if (cached(o)?.metadata?.uid === o.metadata?.uid) {
          log.push(`!store not updated before delete ${label(o)}`);
        }
        log.push(
          `delete ${label(o)} (was ${label(old)})${finalStateUnknown ? ' final state unknown' : ''}`,
        );
      },
    },
    options,
  );
  return log;
}
