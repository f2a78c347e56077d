import { kindTable, type ObjectOf } from '@dcs/domain';
import type { SimClock } from '../logic/clock';
import type { Timeline } from '../logic/timeline';
import type { Caches, WatchedKind } from './caches';
import { isConflict, isNotFound, type KubeClient, type KubeObject } from './client';
import { keyOf } from './cache';

/**
 * Writes through the API server and into the caches' overlay, so that the next reconcile reads
 * what was just written. On 409 Conflict the object is re-read into the cache and the error is
 * rethrown: the work queue retries at once, and the reconcile recomputes from the fresh object.
 * A status write notes on the timeline the simulated instant of each stamp it changes.
 */
export class Writer {
  constructor(
    readonly client: KubeClient,
    private readonly caches: Caches,
    private readonly clock: SimClock,
    private readonly timeline: Timeline,
  ) {}

  async create<K extends WatchedKind>(kind: K, obj: ObjectOf<K>): Promise<ObjectOf<K>> {
    const out = await this.client.create(kindTable[kind], obj);
    const created = out as unknown as ObjectOf<K>;
    this.caches.get(kind).wrote(created, true);
    return created;
  }

  async update<K extends WatchedKind>(kind: K, obj: ObjectOf<K>): Promise<ObjectOf<K>> {
    return this.write(kind, obj, () => this.client.update(kindTable[kind], obj as KubeObject));
  }

  async updateStatus<K extends WatchedKind>(kind: K, obj: ObjectOf<K>): Promise<ObjectOf<K>> {
    const { namespace, name, uid } = obj.metadata;
    const base = this.caches.get(kind).get(namespace, name ?? '');
    const sim = this.clock.now();
    const out = await this.write(kind, obj, () =>
      this.client.updateStatus(kindTable[kind], obj as KubeObject),
    );
    if (uid) this.timeline.recordWrite(uid, statusOf(base), statusOf(obj), sim);
    return out;
  }

  /** Deletes (idempotent: a missing object is fine), guarded by the uid so a successor of the same name survives. */
  async delete<K extends WatchedKind>(kind: K, obj: ObjectOf<K>): Promise<void> {
    const { namespace, name, uid } = obj.metadata;
    try {
      const after = await this.client.delete(
        kindTable[kind],
        namespace,
        name ?? '',
        uid ? { uid } : {},
      );
      // The server answers with the object in both cases: still there (finalizers pending, now
      // with a deletionTimestamp) or already gone.
      const finalizers = after?.metadata.finalizers;
      const remains = Array.isArray(finalizers) && finalizers.length > 0;
      this.caches
        .get(kind)
        .deleted(keyOf(namespace, name), remains ? (after as ObjectOf<K>) : undefined);
    } catch (e) {
      if (isNotFound(e)) {
        this.caches.get(kind).deleted(keyOf(namespace, name), undefined);
        return;
      }
      if (isConflict(e)) return; // uid precondition failed: the object we meant is gone.
      throw e;
    }
  }

  private async write<K extends WatchedKind>(
    kind: K,
    obj: ObjectOf<K>,
    send: () => Promise<KubeObject>,
  ): Promise<ObjectOf<K>> {
    try {
      const out = (await send()) as unknown as ObjectOf<K>;
      this.caches.get(kind).wrote(out);
      return out;
    } catch (e) {
      if (isConflict(e) || isNotFound(e)) await this.refresh(kind, obj);
      throw e;
    }
  }

  private async refresh<K extends WatchedKind>(kind: K, obj: ObjectOf<K>): Promise<void> {
    const { namespace, name } = obj.metadata;
    try {
      const fresh = await this.client.get(kindTable[kind], namespace, name ?? '');
      this.caches.get(kind).wrote(fresh as unknown as ObjectOf<K>);
    } catch (e) {
      if (isNotFound(e)) this.caches.get(kind).deleted(keyOf(namespace, name), undefined);
    }
  }
}

const statusOf = (o: unknown): unknown =>
  typeof o === 'object' && o !== null ? (o as { status?: unknown }).status : undefined;
