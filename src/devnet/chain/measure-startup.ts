// Measures startChain (node + deploy + funding). Run: npx tsx src/devnet/chain/measure-startup.ts [runs]
import { startChain } from './start-chain';

const runs = Number(process.argv[2] ?? 5);
const rows: string[] = [];
for (let i = 0; i < runs; i++) {
  const chain = await startChain({ port: 0, accounts: 4 });
  rows.push(
    `run ${i + 1}: node ${chain.timings.nodeMs} ms, deploy+fund ${chain.timings.deployMs} ms, total ${chain.timings.totalMs} ms`,
  );
  await chain.stop();
}
process.stdout.write(`${rows.join('\n')}\n`);
