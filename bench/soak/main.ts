/**
 * `pnpm soak`: N concurrent agent sessions against one simulator with seeded
 * faults, on a default host with every built-in hook. Prints a table and
 * writes bench/soak/results.json. `pnpm soak --help` lists the options.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { runSoak, SOAK_DEFAULTS, type SoakReport } from './run-soak.js';

const HELP = `pnpm soak [--sessions N] [--seed N] [--fault-rate 0-1] [--overflow-rate 0-1] [--concurrency N] [--max-prefix N] [--out FILE]
defaults: ${JSON.stringify(SOAK_DEFAULTS)}`;

const { values } = parseArgs({
  options: {
    sessions: { type: 'string' },
    seed: { type: 'string' },
    'fault-rate': { type: 'string' },
    'overflow-rate': { type: 'string' },
    concurrency: { type: 'string' },
    'max-prefix': { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

function numberOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  check: (value: number) => boolean,
  expected: string,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !check(value)) {
    console.error(`soak: --${name} expects ${expected}, got "${raw}"\n${HELP}`);
    process.exit(2);
  }
  return value;
}
const positiveInteger = (value: number) => Number.isInteger(value) && value > 0;
const share = (value: number) => value >= 0 && value <= 1;

const options = {
  sessions: numberOption('sessions', values.sessions, SOAK_DEFAULTS.sessions, positiveInteger, 'a positive integer'),
  seed: numberOption('seed', values.seed, SOAK_DEFAULTS.seed, Number.isInteger, 'an integer'),
  faultRate: numberOption(
    'fault-rate',
    values['fault-rate'],
    SOAK_DEFAULTS.faultRate,
    share,
    'a number between 0 and 1',
  ),
  overflowRate: numberOption(
    'overflow-rate',
    values['overflow-rate'],
    SOAK_DEFAULTS.overflowRate,
    share,
    'a number between 0 and 1',
  ),
  concurrency: numberOption(
    'concurrency',
    values.concurrency,
    SOAK_DEFAULTS.concurrency,
    positiveInteger,
    'a positive integer',
  ),
  maxPrefix: numberOption(
    'max-prefix',
    values['max-prefix'],
    SOAK_DEFAULTS.maxPrefix,
    positiveInteger,
    'a positive integer',
  ),
  corpus: fileURLToPath(new URL('../../test/fixtures/corpus/', import.meta.url)),
};

const step = Math.max(1, Math.floor(options.sessions / 20));
const report = await runSoak({
  ...options,
  onSession: (done) => done % step === 0 && console.error(`soak: ${done}/${options.sessions} sessions`),
});
printReport(report);
const out = values.out ?? join(import.meta.dirname, 'results.json');
writeFileSync(
  out,
  `${JSON.stringify({ node: process.version, date: new Date().toISOString(), ...report }, null, 2)}\n`,
);
console.log(`\nJSON: ${out}`);
const failed =
  report.rejectedForShape > 0 || report.unretrievableOriginals > 0 || Object.keys(report.sessionsUnclear).length > 0;
process.exitCode = failed ? 1 : 0;

function printReport(report: SoakReport): void {
  console.log(
    `\n## soak — ${report.options.sessions} sessions, seed ${report.options.seed}, fault rate ${report.options.faultRate}, overflow rate ${report.options.overflowRate}, concurrency ${report.options.concurrency}`,
  );
  console.table({
    'sessions completed': report.sessionsCompleted,
    'sessions ended with a clear error': Object.values(report.sessionsEndedWithError).reduce((sum, n) => sum + n, 0),
    'sessions ended unclearly (must be 0)': Object.values(report.sessionsUnclear).reduce((sum, n) => sum + n, 0),
    'requests rejected for shape (must be 0)': report.rejectedForShape,
    'originals not retrievable (must be 0)': `${report.unretrievableOriginals} of ${report.partsChecked} parts`,
    'recoveries / manual interventions': `${report.recoveries} / ${report.manualInterventions}`,
    'requests (faults injected)': `${report.simulator.requests} (${Object.values(report.simulator.faults).reduce((sum, n) => sum + n, 0) + report.simulator.emptyReplies})`,
    'peak RSS': `${report.peakRssMb} MB`,
    'RSS after each tenth of the sessions': Object.values(report.rssMbBySessions).join(' → ') + ' MB',
    throughput: `${report.sessionsPerSecond} sessions/s, ${report.requestsPerSecond} requests/s`,
    time: `${report.seconds} s`,
  });
  for (const [title, counts] of [
    ['ended with an error', report.sessionsEndedWithError],
    ['unclear', report.sessionsUnclear],
    ['hook failures', report.hookFailures],
  ] as const) {
    if (Object.keys(counts).length > 0)
      console.table(Object.entries(counts).map(([reason, sessions]) => ({ [title]: reason, sessions })));
  }
}
