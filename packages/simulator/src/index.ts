export * from './crds';
export * from './embedded';
export {
  CAPI_RELEASES,
  DEFAULT_CAPI_RELEASE,
  capiVersionsOf,
  isCapiRelease,
} from './capi/releases';
export type { CapiRelease } from './capi/releases';
export * from './admission';
export { INSTALL_MISSING_CRDS, MissingKindsError, startControllers } from './controllers/start';
export type {
  ControllerOptions,
  RunningControllers,
  StartControllersInput,
} from './controllers/start';
export { DEFAULT_PROVIDER_VERSION, providerDeployment } from './controllers/provider';
export { seed } from './seed';
export type { SeedClient, SeedOptions, SeedResult } from './seed';
export { seedClientInProcess, seedClientOverHttp } from './seed/clients';
export { createClock } from './logic/clock';
export type { SimClock, ClockOptions } from './logic/clock';
export { ANNOTATION_FAIL, FAILURE_MODES, parseFailureRule } from './logic/failures';
export type { FailureMode, FailureRule } from './logic/failures';
export { DEFAULT_TIMINGS } from './logic/timings';
export type { Timings } from './logic/timings';
export { WorkloadClusters, kubeconfigNames } from './workload/clusters';
export type { WorkloadCluster, WorkloadClustersOptions } from './workload/clusters';
export * from './oidc/provider';
export { CookieJar, signInAtProvider } from './oidc/browser';
export type { BrowserSignIn } from './oidc/browser';
