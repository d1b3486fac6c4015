/**
 * The worker thread that checks emergency kits for main (kit-checks.ts; built to
 * out/main/kit-worker.js, which main starts by its path): reads each kit from its JSON text, checks
 * every entry, signature and the fingerprint, and answers the kit with its digests, or the refusal's
 * code and sentence.
 * It holds no key and keeps nothing: main decides what is kept.
 */
import { parentPort } from 'node:worker_threads';
import { AirgapError, readEmergencyKit, verifyEmergencyKit } from '../../../client';
import type { KitCheckReply, KitCheckRequest } from './kit-checks';

const port = parentPort;
if (port === null) throw new Error('src/main/core/airgap/kit-worker.ts runs only as a worker thread.');

port.on('message', ({ id, text }: KitCheckRequest) => {
  let reply: KitCheckReply;
  try {
    const kit = readEmergencyKit(JSON.parse(text));
    reply = { id, kit, digests: verifyEmergencyKit(kit) };
  } catch (error) {
    reply =
      error instanceof AirgapError
        ? { id, refusal: { code: error.code, sentence: error.sentence } }
        : { id, fault: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
  }
  port.postMessage(reply);
});
