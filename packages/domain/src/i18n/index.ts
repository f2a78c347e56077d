export * from './fill';
export * from './messages';
