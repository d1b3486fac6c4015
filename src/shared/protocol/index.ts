// Public surface of the protocol core. Pure TypeScript: no node, electron or DOM imports.
export * from './constants';
export * from './errors';
export * from './hex';
export { keccakHex, keccakUtf8 } from './keccak';
export * from './structs';
export * from './domain';
export * from './hashing';
export * from './permit2';
export * from './signing';
export * from './sign-action';
export * from './wire';
export * from './units';
export * from './display';
export * from './asset-id';
export * from './nonces';
