/**
 * One change to the cache, as handlers receive it. `old` is what the cache held before.
 * A deletion found by a relist (the DELETED event itself was missed while disconnected) has
 * `finalStateUnknown: true` and carries the last cached version as `object`.
 */
export type Delta<T> =
  | { readonly type: 'ADDED'; readonly object: T }
  | { readonly type: 'MODIFIED'; readonly object: T; readonly old: T }
  | {
      readonly type: 'DELETED';
      readonly object: T;
      readonly old: T;
      readonly finalStateUnknown: boolean;
    };
