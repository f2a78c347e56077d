// The conversion's entry points: the converter itself (`convert.ts`) and, at the clients' edge,
// asHub/asServed (`edge.ts`, which uses the converter: kept apart so that neither imports the
// other through this index).
export * from './convert';
export { asHub, asServed } from './edge';
export { durationToSeconds, secondsToDuration } from './duration';
