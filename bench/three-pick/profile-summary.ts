// Summarises a V8 .cpuprofile (as `BENCH_CPU_PROFILE` of bench:three writes): the functions with the most self time
// and the most total time (self + callees, each function counted once per stack), in ms and % of the profile.
//   npx tsx bench/three-pick/profile-summary.ts file.cpuprofile [rows (default 25)] [filter: a url substring]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function main(): void {
  const [file, rowsArg, filter] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts file.cpuprofile [rows] [url filter]');
  const rows = Number(rowsArg ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const label = (n: ProfileNode) => {
    const url = n.callFrame.url.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '').replace(/\?.*$/, '');
    return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let all = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    all += ms;
    const leaf = byId.get(id)!;
    const leafName = leaf.callFrame.functionName;
    if (leafName === '(idle)' || leafName === '(program)') idle += ms;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const name = label(byId.get(at)!);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + ms);
    }
  });
  const top = (map: Map<string, number>) =>
    [...map]
      .filter(([name]) => !filter || name.includes(filter))
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(([name, ms]) => `  ${ms.toFixed(1).padStart(8)} ms ${((100 * ms) / all).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n');
  console.log(`${file}: ${all.toFixed(1)} ms sampled, ${idle.toFixed(1)} ms idle or (program)`);
  console.log(`self time:\n${top(self)}`);
  console.log(`total time:\n${top(total)}`);
}

main();
