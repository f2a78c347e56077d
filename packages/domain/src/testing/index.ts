export * from './builders';
export * from './audit';
