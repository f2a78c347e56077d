/**
 * The part of a Kubernetes object the informer reads. Our own type rather than client-node's
 * `KubeObject`: that one types `metadata` as the class `V1ObjectMeta`, with `Date`
 * timestamps, while the informer caches the JSON exactly as the server sent it (timestamps are
 * strings). Types parsed from the wire (e.g. domain's zod schemas) fit this one structurally.
 */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly resourceVersion?: string;
    /** Not read by the informer; typed because indexes by label are the common case. */
    readonly labels?: Readonly<Record<string, string>>;
  };
}
