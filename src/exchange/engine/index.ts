// Public surface of the devnet matching engine.
export { Engine, EngineError } from './engine';
export type { EngineOptions } from './engine';
export { checkInvariants } from './invariants';
export { canonicalJson } from './state-hash';
export * from './types';
