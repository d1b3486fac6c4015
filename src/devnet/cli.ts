/**
 * `npm run devnet`: starts the whole devnet in this process, prints progress, the banner and a
 * machine-parsable `DEVNET READY {json}` line, and stops cleanly on Ctrl-C / SIGTERM (exit 0).
 *
 *   npm run devnet -- [--fresh] [--data-dir DIR] [--bots N] [--port HTTP_PORT] [--rpc-port RPC_PORT]
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatDevnetBanner } from './chain';
import { DEVNET_PORTS, startDevnet, type DevnetHandle } from './devnet';

const USAGE =
  'Usage: npm run devnet -- [--fresh] [--data-dir DIR] [--bots N] [--port HTTP_PORT] [--rpc-port RPC_PORT] [--quiet-bots]';

function fail(message: string): never {
  console.error(`devnet: ${message}`);
  console.error(USAGE);
  process.exit(2);
}

function port(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) fail(`${flag} must be a port number (0–65535), got "${value}".`);
  return n;
}

function parseCli(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        fresh: { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        bots: { type: 'string' },
        port: { type: 'string' },
        'rpc-port': { type: 'string' },
        'quiet-bots': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const v = parsed.values;
  if (v.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const bots = v.bots === undefined ? 3 : Number(v.bots);
  if (!Number.isInteger(bots) || bots < 0 || bots > 16)
    fail(`--bots must be a whole number from 0 to 16, got "${v.bots}".`);
  return {
    fresh: v.fresh,
    dataDir: resolve(v['data-dir'] ?? '.devnet-data'),
    bots,
    http: port(v.port, DEVNET_PORTS.http, '--port'),
    rpc: port(v['rpc-port'], DEVNET_PORTS.rpc, '--rpc-port'),
    quietBots: v['quiet-bots'],
  };
}

async function main(): Promise<void> {
  const args = parseCli(process.argv.slice(2));
  let devnet: DevnetHandle | undefined;
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the devnet…`);
    const started = performance.now();
    void (devnet?.stop() ?? Promise.resolve()).then(
      () => {
        console.log(`devnet stopped in ${Math.round(performance.now() - started)} ms`);
        process.exit(0);
      },
      (err: unknown) => {
        console.error(`devnet: stop failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  console.log(`devnet: data in ${args.dataDir}${args.fresh ? ' (fresh)' : ''}`);
  try {
    devnet = await startDevnet({
      dataDir: args.dataDir,
      fresh: args.fresh,
      bots: args.bots,
      ports: { http: args.http, rpc: args.rpc },
      onProgress: (p) => console.log(`[${String(p.elapsedMs).padStart(6)} ms] ${p.stage.padEnd(8)} ${p.message}`),
      log: args.quietBots ? () => {} : (line) => console.log(line),
    });
  } catch (err) {
    console.error(`devnet: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  if (stopping) return; // Ctrl-C during start-up: shutdown() owns the exit now
  console.log('');
  process.stdout.write(
    formatDevnetBanner({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      contracts: devnet.contracts,
      accounts: devnet.accounts,
      operator: { address: devnet.operator, privateKey: '0x' },
      services: [
        { label: 'Exchange HTTP', url: devnet.httpUrl },
        { label: 'Market WS', url: devnet.marketWsUrl },
        { label: 'Oracle WS', url: devnet.oracleWsUrl },
        { label: 'devnet.json', url: devnet.devnetFile },
      ],
    }),
  );
  console.log(`\nready in ${devnet.startupMs} ms. Ctrl-C to stop.`);
  console.log(
    `DEVNET READY ${JSON.stringify({
      startupMs: devnet.startupMs,
      httpUrl: devnet.httpUrl,
      marketWsUrl: devnet.marketWsUrl,
      oracleWsUrl: devnet.oracleWsUrl,
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId.toString(),
      devnetFile: devnet.devnetFile,
    })}`,
  );
}

await main();
