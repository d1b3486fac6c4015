// Runs in a worker thread of the signature pool: batches of (digest, signature, signer) in, one byte
// per check out (1 = valid). The verifier's per-signer tables live in this thread.
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './signature-pool';
import { SignatureVerifier, type SignatureToCheck, type SignatureVerifierOptions } from './signature-verifier';

const port = parentPort;
if (port === null) throw new Error('signature-worker.ts runs only as a worker thread.');
const verifier = new SignatureVerifier((workerData as { verifier: SignatureVerifierOptions }).verifier);

port.on('message', (m: WorkerRequest) => {
  const fast = verifier.stats.fast;
  const recovered = verifier.stats.recovered;
  let reply: WorkerReply;
  try {
    const items: SignatureToCheck[] = m.signatures.map((signature, i) => ({
      digest: m.digests.subarray(32 * i, 32 * i + 32),
      signature,
      signer: m.signers[i]!,
    }));
    const ok = verifier.verifyBatch(items);
    const results = new Uint8Array(ok.length);
    for (let i = 0; i < ok.length; i++) results[i] = ok[i] ? 1 : 0;
    reply = { id: m.id, results, fast: verifier.stats.fast - fast, recovered: verifier.stats.recovered - recovered };
  } catch (e) {
    reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
