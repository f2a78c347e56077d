/**
 * What the cache needs of one list+watch: the shape of packages/informer's shared informer,
 * narrowed so that unit tests can feed the cache from a fake and the adapter stays one file.
 */

export interface WatchSpec {
  group: string;
  version: string;
  plural: string;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface SourceHandlers {
  add?: (object: unknown) => void;
  update?: (object: unknown, old: unknown) => void;
  delete?: (object: unknown, old: unknown) => void;
}

export interface SourceHealth {
  resource: string;
  hasSynced: boolean;
  objects: number;
  restarts: number;
  relists: number;
  errors: number;
  /** Watches restarted because they were silent (no event, no bookmark): not failures. */
  staleRestarts: number;
  /** How long since the newest sign that the cache is current (event, bookmark, list). */
  lagMs: number;
  /** When the current run of LIST/WATCH failures began (epoch ms); 0 when healthy. */
  failingSince: number;
  /** The last failure's message; '' when healthy. */
  lastError: string;
}

export interface ObjectSource {
  readonly resource: string;
  start(): void;
  stop(): Promise<void>;
  hasSynced(): boolean;
  /** Handlers run after the source's own cache is updated; an add is replayed for what is cached. */
  addHandlers(handlers: SourceHandlers): () => void;
  health(): SourceHealth;
}

export type SourceFactory = (spec: WatchSpec) => ObjectSource;
