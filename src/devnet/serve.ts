// Runs the exchange service as its own process (benchmarks, manual use):
//   npx tsx src/devnet/serve.ts --port 0 [--host 127.0.0.1] [--data-dir DIR] [--fresh]
//     [--chain-id 31337] [--verifying-contract 0x…] [--ledger 0x…] [--credit 0xADDR=UNITS]…
//     [--signature-workers N]   (worker threads verifying signatures; 0 = on the main thread)
// Prints one JSON line {httpUrl, marketWsUrl, oracleWsUrl, chainId, verifyingContract, ledger, markets} on
// stdout once listening; stops cleanly on SIGINT/SIGTERM. Addresses default to the devnet chain's
// predicted contracts. Credits are devnet-only and happen at start-up, never over HTTP.
import { parseArgs } from 'node:util';
import { deriveDevnetKeys, DEVNET_MNEMONIC, predictDevnetContracts } from './chain';
import { startExchangeService } from '../exchange/service/service';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'data-dir': { type: 'string' },
    fresh: { type: 'boolean', default: false },
    'chain-id': { type: 'string', default: '31337' },
    'verifying-contract': { type: 'string' },
    ledger: { type: 'string' },
    credit: { type: 'string', multiple: true, default: [] },
    'signature-workers': { type: 'string' },
  },
});

const predicted = predictDevnetContracts(deriveDevnetKeys(DEVNET_MNEMONIC, 0).operator.address);
const svc = await startExchangeService({
  host: values.host,
  port: Number(values.port),
  ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
  fresh: values.fresh,
  chainId: BigInt(values['chain-id']),
  verifyingContract: values['verifying-contract'] ?? predicted.exchange,
  ledger: values.ledger ?? predicted.ledger,
  contracts: {
    depositLedger: predicted.depositLedger,
    settlementToken: predicted.settlementToken,
    permit2: predicted.permit2,
  },
  ...(values['signature-workers'] === undefined ? {} : { signatureWorkers: Number(values['signature-workers']) }),
});
for (const c of values.credit) {
  const [account, units] = c.split('=');
  if (account === undefined || units === undefined || !/^[1-9][0-9]*$/.test(units))
    throw new TypeError(`--credit expects 0xADDRESS=UNITS, got ${c}`);
  await svc.credit(account, BigInt(units));
}
process.stdout.write(
  `${JSON.stringify({
    httpUrl: svc.httpUrl,
    marketWsUrl: svc.marketWsUrl,
    oracleWsUrl: svc.oracleWsUrl,
    chainId: svc.chainId.toString(),
    verifyingContract: svc.domain.verifyingContract,
    ledger: values.ledger ?? predicted.ledger,
    markets: svc.catalog.markets.map((m) => ({
      assetId: m.assetId.toString(),
      symbol: m.symbol,
      periodLength: m.periodLength.toString(),
    })),
  })}\n`,
);

let stopping = false;
const shutdown = (): void => {
  if (stopping) return;
  stopping = true;
  svc.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
