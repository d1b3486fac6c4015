// Worker-thread entry of the signature pool (signature-pool.ts). Plain JS so it loads in every host:
// under `tsx` (bench, devnet, serve.ts) the worker inherits the TypeScript loader and the import just
// works; elsewhere (vitest's forks, plain node) .ts is unknown, so tsx's loader is registered first.
import { workerData } from 'node:worker_threads';

try {
  await import(workerData.entry);
} catch (e) {
  if (e?.code !== 'ERR_UNKNOWN_FILE_EXTENSION' && e?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
  const { register } = await import('tsx/esm/api');
  register();
  // A fresh URL: the failed import above stays cached under the plain one.
  await import(`${workerData.entry}?tsx`);
}
