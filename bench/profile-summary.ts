// Top functions by self and total time in a V8 CPU profile (.cpuprofile: Chrome DevTools' or node's).
//   npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Self and total ms per function (name, file, line), the top `n` of each. */
export function summariseProfile(profile: CpuProfile, n = 25): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++)
    selfMs.set(samples[i]!, (selfMs.get(samples[i]!) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0) / 1000);
  const key = (node: ProfileNode): string => {
    const file = node.callFrame.url.split('/').at(-1) ?? '';
    return `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const walk = (id: number, onStack: Set<string>): number => {
    const node = byId.get(id)!;
    let sum = selfMs.get(id) ?? 0;
    const k = key(node);
    self.set(k, (self.get(k) ?? 0) + (selfMs.get(id) ?? 0));
    const inner = new Set(onStack).add(k);
    for (const child of node.children ?? []) sum += walk(child, inner);
    // Counted once per stack, so recursion does not double a function's total.
    if (!onStack.has(k)) total.set(k, (total.get(k) ?? 0) + sum);
    return sum;
  };
  const root = profile.nodes[0]!;
  const all = walk(root.id, new Set());
  const top = (m: Map<string, number>): string[] =>
    [...m]
      .filter(([k]) => !/^\((root|program|idle)\)/.test(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${k}`);
  const idle = [...self].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, ms]) => s + ms, 0);
  return [
    `profile of ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms, ${(all - idle).toFixed(0)} ms not idle`,
    'by self time:',
    ...top(self),
    'by total time:',
    ...top(total),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, top] = process.argv.slice(2);
  if (file === undefined) {
    console.error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  for (const line of summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(top ?? 25)))
    console.log(line);
}
