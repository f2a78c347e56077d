import { writeSync } from 'node:fs';
import { ConfigError, listenOptionsOf, loadConfig } from '../config/env';

/**
 * Serves the console: the API and the built SPA, on HOST:PORT (default 127.0.0.1:8080), against
 * the cluster of `--kubeconfig FILE` / KUBECONFIG, or in-cluster. SIGTERM/SIGINT shut down
 * gracefully: streams are ended with a `shutdown` event first, then in-flight requests finish.
 */
export async function serve(argv: readonly string[]): Promise<() => Promise<void>> {
  const config = loadConfig({ argv });
  // DCS_CHECK_ARGS=1: the command line and environment are parsed and checked, nothing is served
  // (the README commands test).
  if (process.env.DCS_CHECK_ARGS === '1') {
    const { sessionKeys: _keys, ...shown } = config;
    writeSync(1, `args ok: ${JSON.stringify(shown)}\n`);
    process.exit(0);
  }
  // Loaded only now, so that checking the arguments costs no app.
  const { buildApp } = await import('../app');
  const app = await buildApp({ config });
  await app.listen(listenOptionsOf(config));
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      const timer = setTimeout(() => {
        app.log.error('graceful shutdown timed out; exiting');
        process.exit(1);
      }, config.shutdownGraceMs);
      timer.unref();
      await app.close();
      clearTimeout(timer);
    })();
    return closing;
  };
}

export async function main(argv: readonly string[]): Promise<void> {
  try {
    const stop = await serve(argv);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        void stop().then(() => process.exit(0));
      });
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`bff: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) await main(process.argv.slice(2));
