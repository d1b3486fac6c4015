// A process of its own for one practice worker (bench/practice.bench.ts's soak): it starts the built
// out/main/practice-worker.js with the PracticeStart in argv[2] and relays messages both ways over
// IPC, so the worker's RSS is this small process's and two workers measured side by side do not
// share one. Run with --expose-gc so the worker can collect before it measures its heap.
import { Worker } from 'node:worker_threads';

const worker = new Worker(new URL('../out/main/practice-worker.js', import.meta.url), {
  workerData: JSON.parse(process.argv[2] ?? '{}'),
});
worker.on('message', (m) => process.send?.(m));
process.on('message', (m) => worker.postMessage(m));
worker.on('error', (e) => {
  console.error(e);
  process.exit(1);
});
worker.on('exit', (code) => process.exit(code));
