export * from './messages';
export * from './problem';
export * from './conditions';
export * from './diagnosis';
