export * from './messages';
export * from './problem';
export * from './conditions';
export * from './diagnosis';
export * from './machine';
export * from './ippool';
export * from './rollout';
