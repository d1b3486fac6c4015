// Worker-thread entry that runs a TypeScript module (workerData.entry) under tsx's loader: vitest's
// loader does not reach worker threads.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
