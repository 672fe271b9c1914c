/**
 * `pnpm chaos`: the attacks on the stores, the host and the simulator as a reproducible suite — PostgreSQL
 * backends terminated under load, a partitioned PostgreSQL, file-size limits,
 * lock takeover races, many sessions on one host — each with acknowledged vs
 * stored counts. Needs the PostgreSQL server of the tests (DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/test). Writes bench/chaos/results.json.
 * `--quick` runs a shorter version.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { lockRaces, manySessions, sizeLimit, withChild } from './file-chaos.js';
import { pgPartition, pgTerminations } from './pg-chaos.js';
import { runHostileInputs } from '../hostile-inputs.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, out: { type: 'string' } } });
const quick = values.quick === true;
const results: Record<string, unknown> = { node: process.version, date: new Date().toISOString(), quick };

const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
  console.error(`chaos: ${name}…`);
  const started = Date.now();
  const result = await run();
  results[name] = { ...result, seconds: Math.round((Date.now() - started) / 100) / 10 };
  console.log(`\n## ${name}`);
  console.table(results[name]);
  return result;
};

await step('postgres: backends terminated under load', () =>
  pgTerminations({ seconds: quick ? 5 : 20, everyMs: 100, stores: 4 }),
);
await step('postgres: partitioned server', () =>
  pgPartition({ seconds: quick ? 6 : 10, partitionSeconds: quick ? 2 : 4, statementMs: 1_000, connectMs: 1_000 }),
);
await withChild(async (work, child) => {
  for (const limitKib of quick ? [64] : [16, 64, 256])
    await step(`file store: ulimit -f ${limitKib} KiB`, () => sizeLimit(work, child, limitKib));
  await step('file store: lock takeover races', () => lockRaces(work, child, quick ? 3 : 15));
  await step('host: many sessions on one host', () => manySessions(work, quick ? 300 : 2_000, 0.5));
});

await step('hostile inputs: secrets, transcripts', async () =>
  Object.fromEntries(
    (await runHostileInputs(quick ? 'smallest' : 'full')).map((row) => [row.measure, `${row.failed} of ${row.tried}`]),
  ),
);

const out = values.out ?? join(import.meta.dirname, 'results.json');
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nJSON: ${out}`);
