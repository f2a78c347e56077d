export { startApiServer } from './server';
export type { ApiServer, ApiServerOptions, ServerClient, ObjectRef, ObjectChange } from './server';
export { buildKubeconfig } from './kubeconfig';
export { OIDC_FLAGS, oidcOptionsFromFlags, usernamePrefixOf } from './auth/oidc';
export type { OidcOptions } from './auth/oidc';
export type { KubeconfigContext, KubeconfigOptions } from './kubeconfig';
export { createCertificateAuthority, createServingCertificate } from './certs';
export type { CertificateAuthority, ServingCertificate } from './certs';
export type { PatchType, DeleteOptions } from './operations';
export type {
  AdmissionHook,
  AdmissionMatch,
  AdmissionOperation,
  AdmissionRequest,
  AdmissionResult,
  AdmissionStatus,
  AnyKindRegistration,
  ConversionCallback,
  JSONSchemaProps,
  KindRegistration,
  KindVersion,
  KubeObject,
  MultiVersionKindRegistration,
  ObjectMeta,
  OwnerReference,
  PrinterColumn,
  ScalePaths,
  Scope,
  TokenEntry,
  UserInfo,
  ValidationRule,
} from './types';
export { celCompileErrors, validateCel, PER_CALL_LIMIT, RUNTIME_COST_BUDGET } from './cel';
export type { CelResult } from './cel';
export type { FieldError, StatusBody, StatusCause, StatusDetails } from './status';
export { fieldError, invalid } from './status';
export { StateLockedError } from './persistence';
export { writePrivateFile } from './identity';
export { compareVersionPriority } from './version-priority';
export { kindFromCrd } from './crd';
