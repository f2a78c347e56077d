export * from './plan';
export * from './verdict';
export * from './json-patch';
export * from './diff';
export * from './kubectl';
export * from './messages';
export * from './issues';
export * from './names';
export * from './suggest';
export * from './bootstrap-defaults';
export * from './rollout';
export {
  applyStep,
  applySteps,
  copyForCreate,
  diffsOf,
  refTo,
  StepError,
  type StepFailure,
} from './objects';
export * from './ip-pool';
export * from './pool-merge';
export * from './create-pool';
export * from './scale';
export * from './upgrade';
export * from './delete-pool';
export * from './pool-defaults';
export * from './edit-strategy';
export * from './control-plane-config';
export * from './pause';
export * from './autoscale';
export * from './disk-migration';
export * from './bounds';
export * from './wire';
export * from './restart';
export * from './health-check';
