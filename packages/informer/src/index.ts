export * from './informer';
export * from './factory';
export { stripManagedFields } from './options';
export { internStrings, type InternOptions, type StringInterner } from './intern';
export type { ResourceSpec } from './resource';
export { describeResource, resourceKey, resourcePath } from './resource';
export { keyOf, objectKey } from './object-key';
export type { EventHandlers } from './handlers';
export type { Delta } from './delta';
export type { IndexFunc } from './store';
export type { BackoffOptions } from './backoff';
export type {
  ErrorInfo,
  ErrorPhase,
  InformerHooks,
  InformerOptions,
  RecoveredInfo,
  RelistInfo,
  StaleInfo,
} from './options';
export type { InformerMetrics, InformerState } from './metrics';
export { ApiError } from './api-error';
export type { KubeObject } from './kube-object';
export type { KubeConfigLike } from './kubeconfig';
