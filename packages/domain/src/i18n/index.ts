export * from './fill';
export * from './messages';
export * from './glossary';
