// A whole devnet for one test file: fresh state in its own temp folder, ephemeral loopback ports,
// and one stop() that also removes the folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet, type DevnetHandle, type StartDevnetOptions } from '../src/devnet/devnet';

export interface TempDevnet {
  readonly devnet: DevnetHandle;
  /** The temp folder; the devnet's data is in its `devnet/` subfolder, the rest is the test's. */
  readonly dir: string;
  stop(): Promise<void>;
}

export async function startTempDevnet(
  prefix: string,
  options: Omit<StartDevnetOptions, 'dataDir' | 'fresh' | 'ports'>,
): Promise<TempDevnet> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  let devnet: DevnetHandle;
  try {
    devnet = await startDevnet({ ...options, dataDir: join(dir, 'devnet'), fresh: true, ports: { http: 0, rpc: 0 } });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    devnet,
    dir,
    async stop() {
      await devnet.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
