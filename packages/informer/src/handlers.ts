import type { Delta } from './delta';

/**
 * Callbacks for changes to an informer's cache. They run after the cache has been updated, so
 * `informer.get()` inside a handler already sees the change. `old` is the cached version before.
 * On delete, `object` is the final state sent by the server, or — when the deletion was found by
 * a relist because the event itself was missed — the last cached version, with
 * `finalStateUnknown: true`.
 */
export interface EventHandlers<T> {
  readonly add?: (object: T) => void;
  readonly update?: (object: T, old: T) => void;
  readonly delete?: (object: T, old: T, finalStateUnknown: boolean) => void;
}

/** The registered handlers of one informer; a throwing handler never stops the others. */
export class HandlerRegistry<T> {
  /** Wrapped in fresh objects so that one handlers object may be registered twice. */
  readonly #entries = new Set<{ readonly handlers: EventHandlers<T> }>();

  get size(): number {
    return this.#entries.size;
  }

  /** Registers handlers; returns the function that unregisters them. */
  add(handlers: EventHandlers<T>): () => void {
    const entry = { handlers };
    this.#entries.add(entry);
    return () => {
      this.#entries.delete(entry);
    };
  }

  /** Calls every handler with one delta; `report` receives what a handler threw. */
  dispatch(delta: Delta<T>, report: (error: unknown) => void): void {
    // A snapshot: a handler may (un)register handlers while we iterate.
    for (const { handlers } of [...this.#entries]) deliver(handlers, delta, report);
  }
}

/** Calls the one handler matching the delta. */
export function deliver<T>(
  handlers: EventHandlers<T>,
  delta: Delta<T>,
  report: (error: unknown) => void,
): void {
  try {
    switch (delta.type) {
      case 'ADDED':
        handlers.add?.(delta.object);
        break;
      case 'MODIFIED':
        handlers.update?.(delta.object, delta.old);
        break;
      case 'DELETED':
        handlers.delete?.(delta.object, delta.old, delta.finalStateUnknown);
        break;
    }
  } catch (error) {
    report(error);
  }
}
