import type { InformerFactory, KubeObject } from '@dcs/informer';
import type { ObjectSource, SourceFactory } from './source';

/**
 * The cache's sources backed by packages/informer's shared factory: one informer (one LIST+WATCH
 * loop) per spec, whoever asks. The factory starts an informer on first request; `start()` here
 * only exists for sources that need it.
 */
export function informerSources(factory: InformerFactory): SourceFactory {
  return (spec) => {
    const informer = factory.informer({
      group: spec.group,
      version: spec.version,
      plural: spec.plural,
      ...(spec.namespace !== undefined ? { namespace: spec.namespace } : {}),
      ...(spec.labelSelector !== undefined ? { labelSelector: spec.labelSelector } : {}),
      ...(spec.fieldSelector !== undefined ? { fieldSelector: spec.fieldSelector } : {}),
    });
    const source: ObjectSource = {
      resource: informer.resource,
      start: () => {
        informer.start();
      },
      stop: () => informer.stop(),
      hasSynced: () => informer.hasSynced,
      addHandlers: (h) =>
        informer.addEventHandler({
          ...(h.add ? { add: h.add } : {}),
          ...(h.update ? { update: h.update } : {}),
          ...(h.delete ? { delete: (o: KubeObject, old: KubeObject) => h.delete?.(o, old) } : {}),
        }),
      health: () => {
        const m = informer.metrics();
        return {
          resource: m.resource,
          hasSynced: m.hasSynced,
          objects: m.objects,
          restarts: m.restarts,
          relists: m.relists,
          errors: m.errors,
          staleRestarts: m.staleRestarts,
          lagMs: m.lagMs,
          failingSince: m.failingSince,
          lastError: m.lastError,
        };
      },
    };
    return source;
  };
}
