export * from './kinds';
export * from './labels';
export * from './dcs-fields';
export * from './schemas';
export * from './rules/issue';
export * from './rules/context';
