export * from './crds';
export * from './embedded';
export * from './admission';
