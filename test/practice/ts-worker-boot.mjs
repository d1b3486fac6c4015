// Worker-thread entry that runs a TypeScript module under tsx's loader, named by the worker's last
// argv (not workerData: the practice worker parses its workerData strictly, as main sends it).
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
