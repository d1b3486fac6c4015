// Script: recompile contracts/ and rewrite the committed artifacts. Run: npx tsx src/devnet/chain/compile.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileContracts } from './solc-compile';

const target = fileURLToPath(new URL('./artifacts.json', import.meta.url));
const started = performance.now();
const artifacts = compileContracts();
writeFileSync(target, `${JSON.stringify(artifacts, null, 2)}\n`);
const ms = Math.round(performance.now() - started);
process.stdout.write(
  `compiled ${Object.keys(artifacts.contracts).length} contracts with solc ${artifacts.solcVersion} in ${ms} ms -> ${target}\n`,
);
