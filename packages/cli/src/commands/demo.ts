import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { readTranscript } from '@ctxhost/transcripts';
import { buildDemoReport, type DemoReport } from '../demo-report.js';
import { displayPath } from '../display-path.js';
import { formatCount, formatTable } from '../format-table.js';
import { toolOutputTable } from '../tool-output-table.js';
import type { CliIo } from '../output/index.js';
import { wholeNumberFlag } from '../parse-flags.js';
import type { ReplayResult } from '../replay/run-replay.js';
import { replayTranscript } from './replay.js';

/** The largest Claude Code session of the corpus, copied (with its licence) into this package for the demo, so `npx ctxhost demo` finds it. */
export const DEFAULT_DEMO_TRANSCRIPT = fileURLToPath(
  new URL('../../demo/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', import.meta.url),
);

/**
 * Small enough that the bundled session fills it: the monitor warns, the
 * compressor compacts, and the last subagent's prompt goes a few hundred
 * tokens over the API's limit, which the recovery cascade's summary recovers.
 */
export const DEMO_WINDOW = 18_000;
/** The simulated API stops at this fraction of the window, as real APIs sometimes stop short of the nominal one (180,000 on a 200k model): the overflow it causes is recovered. */
export const DEMO_API_LIMIT_RATIO = 0.5;
export const DEMO_REPORT_FILE = 'demo-report.html';

export interface DemoOptions {
  sidechains: boolean;
  run?: number;
  window?: number;
  live?: boolean;
  report: string;
}

/** `ctxhost demo [transcript]`: a transcript's groups and largest tool outputs, then its replay through a host, and the HTML report. */
export function registerDemoCommand(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description(
      'import a transcript, print its message groups and largest tool outputs, replay it through a host with every default hook at a small window (offline), and write demo-report.html',
    )
    .argument('[transcript]', 'transcript file; default: the Claude Code session bundled with this package (demo/)')
    .option('--no-sidechains', 'leave out Claude Code subagent (sidechain) turns')
    .option('--run <n>', 'OpenHands multi-run JSONL: which run, from 0', wholeNumberFlag(0))
    .option(
      '--window <tokens>',
      `the replay's context window (default ${formatCount(DEMO_WINDOW)})`,
      wholeNumberFlag(1_000),
    )
    .option('--live', 'summarize with the real API (needs ANTHROPIC_API_KEY)')
    .option('--report <file>', 'where to write the HTML report', DEMO_REPORT_FILE)
    .addHelpText(
      'after',
      '\nExamples:\n  ctxhost demo\n  ctxhost demo ~/.claude/projects/my-project/session.jsonl --window 50000 --report my-report.html',
    )
    .action(async (transcript: string | undefined, options: DemoOptions) => {
      await runDemo(transcript ?? DEFAULT_DEMO_TRANSCRIPT, options, io);
    });
}

export async function runDemo(path: string, options: DemoOptions, io: CliIo): Promise<ReplayResult> {
  const { out } = io;
  const transcript = await readTranscript(path, {
    includeSidechains: options.sidechains,
    ...(options.run === undefined ? {} : { run: options.run }),
  });
  const report = buildDemoReport(transcript.messages);
  const details = [
    `format ${transcript.format}`,
    `${formatCount(transcript.messages.length)} messages`,
    ...(transcript.format === 'claude-code' ? [options.sidechains ? 'sidechains included' : 'main thread only'] : []),
    ...(transcript.usage === undefined ? [] : [`${formatCount(transcript.usage.length)} API-reported requests`]),
    ...(typeof transcript.meta.runs === 'number'
      ? [`run ${String(transcript.meta.run)} of ${transcript.meta.runs}`]
      : []),
    ...(transcript.skipped > 0 ? [`${transcript.skipped} invalid lines skipped`] : []),
  ];
  const window = options.window ?? DEMO_WINDOW;
  const apiLimit = Math.floor(window * DEMO_API_LIMIT_RATIO);
  out.write(
    [
      out.colors.bold(`ctxhost demo: ${displayPath(path)}`),
      details.join(', '),
      '',
      out.colors.bold('Groups by kind (tokens: ctxhost estimate)'),
      kindTable(report),
      '',
      out.colors.bold('Ten largest tool outputs'),
      toolOutputTable(report.largestToolOutputs),
      '',
      out.colors.bold(`Replay through a host with every default hook at a ${formatCount(window)}-token window`),
      `The recorded assistant turns are played back by the simulator over HTTP through the Anthropic SDK; the simulated API stops at ${formatCount(apiLimit)} tokens, as real APIs sometimes stop short of the nominal window.`,
      '',
    ].join('\n'),
  );
  return replayTranscript(
    path,
    {
      window,
      apiLimit,
      report: options.report,
      json: false,
      live: options.live === true,
      strict: false,
      sidechains: options.sidechains,
      header: false,
      reconstruct: false,
      ...(options.run === undefined ? {} : { run: options.run }),
    },
    io,
  );
}

function kindTable(report: DemoReport): string {
  const columns = [
    { header: 'kind' },
    ...['groups', 'messages', 'characters', 'tokens', 'orphans'].map((header) => ({ header, align: 'right' as const })),
  ];
  const row = (kind: string, values: DemoReport['total']): string[] => [
    kind,
    ...[values.groups, values.messages, values.chars, values.tokens, values.orphans].map(formatCount),
  ];
  return formatTable(columns, [...report.kinds.map((kind) => row(kind.kind, kind)), row('total', report.total)]);
}
