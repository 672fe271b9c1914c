/**
 * `pnpm bench`: every benchmark in one run, printed as tables and written to
 * bench/results.json. Ratios come from the same run (shared machines drift).
 * `pnpm bench --only recovery` runs one; `--list` names them; `--size smallest`
 * runs each at the size the tests use (results.json is then left alone).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchSize } from './bench.js';
import { BENCHES } from './benches.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string', multiple: true },
    list: { type: 'boolean', default: false },
    size: { type: 'string', default: 'full' },
  },
});
if (values.list) {
  for (const [name, bench] of Object.entries(BENCHES)) console.log(`${name.padEnd(24)} ${bench.title}`);
  process.exit(0);
}
if (values.size !== 'full' && values.size !== 'smallest') {
  console.error(`--size ${values.size}: expected full or smallest`);
  process.exit(2);
}
const size: BenchSize = values.size;
const selected = values.only ?? Object.keys(BENCHES);
const unknown = selected.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}

const results: Record<string, { title: string; seconds: number; rows: object[] }> = {};
const started = performance.now();
for (const name of selected) {
  const bench = BENCHES[name]!;
  const t = performance.now();
  const rows = await bench.run(size);
  const seconds = Math.round((performance.now() - t) / 100) / 10;
  results[name] = { title: bench.title, seconds, rows };
  console.log(`\n## ${name} — ${bench.title} (${seconds}s)`);
  console.table(rows);
}
const total = Math.round((performance.now() - started) / 1000);
console.log(`\nall benchmarks: ${total}s`);
if (size === 'full')
  writeFileSync(
    join(import.meta.dirname, 'results.json'),
    `${JSON.stringify({ node: process.version, date: new Date().toISOString(), totalSeconds: total, results }, null, 2)}\n`,
  );
