export * from './record';
export * from './timeline';
export * from './object-events';
