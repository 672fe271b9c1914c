import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import type { Command } from 'commander';
import { readTranscript } from '@ctxhost/transcripts';
import { buildDemoReport, type DemoReport } from '../demo-report.js';
import { replayAtWindow } from '../demo-replay.js';
import { formatCount, formatTable } from '../format-table.js';

/** The largest Claude Code session of the corpus, copied (with its licence) for the demo. */
export const DEFAULT_DEMO_TRANSCRIPT = fileURLToPath(new URL('../../../../examples/transcripts/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', import.meta.url));

export interface DemoOptions {
  sidechains: boolean;
  run?: number;
}

/** `ctxhost demo [transcript]`: groups by kind and the ten largest tool outputs of a transcript. */
export function registerDemoCommand(program: Command, write: (text: string) => void): void {
  program
    .command('demo')
    .description('import a transcript (Claude Code, OpenHands, SWE-agent) and print its message groups and largest tool outputs')
    .argument('[transcript]', 'transcript file; default: the bundled Claude Code session in examples/transcripts/')
    .option('--no-sidechains', 'leave out Claude Code subagent (sidechain) turns')
    .option('--run <n>', 'OpenHands multi-run JSONL: which run, from 0', (value) => parseRun(value))
    .action(async (transcript: string | undefined, options: DemoOptions) => {
      write(await runDemo(transcript ?? DEFAULT_DEMO_TRANSCRIPT, options));
    });
}

function parseRun(value: string): number {
  const run = Number(value);
  if (!Number.isInteger(run) || run < 0) throw new Error(`--run expects a whole number from 0, got "${value}"`);
  return run;
}

export async function runDemo(path: string, options: DemoOptions): Promise<string> {
  const transcript = await readTranscript(path, { includeSidechains: options.sidechains, ...(options.run === undefined ? {} : { run: options.run }) });
  const report = buildDemoReport(transcript.messages);
  const shown = relative(process.cwd(), path) || path;
  const details = [
    `format ${transcript.format}`,
    `${formatCount(transcript.messages.length)} messages`,
    ...(transcript.format === 'claude-code' ? [options.sidechains ? 'sidechains included' : 'main thread only'] : []),
    ...(transcript.usage === undefined ? [] : [`${formatCount(transcript.usage.length)} API-reported requests`]),
    ...(typeof transcript.meta.runs === 'number' ? [`run ${String(transcript.meta.run)} of ${transcript.meta.runs}`] : []),
    ...(transcript.skipped > 0 ? [`${transcript.skipped} invalid lines skipped`] : []),
  ];
  const main = transcript.format === 'claude-code' && options.sidechains ? (await readTranscript(path, { includeSidechains: false })).messages : transcript.messages;
  const mainTokens = buildDemoReport(main).total.tokens;
  const window = Math.max(2_000, Math.floor(mainTokens / 1.5));
  const largest = report.largestToolOutputs[0];
  const bigOutput = transcript.messages.flatMap((message) => message.parts).find((part) => part.type === 'tool-result' && part.callId === largest?.callId);
  const bigText = bigOutput?.type === 'tool-result' && typeof bigOutput.output === 'string' ? bigOutput.output : 'build output line\n'.repeat(2000);
  const replay = await replayAtWindow(main, window, bigText);
  return [
    `ctxhost demo: ${shown}`,
    details.join(', '),
    '',
    'Groups by kind (tokens: ctxhost estimate)',
    kindTable(report),
    '',
    'Ten largest tool outputs',
    toolTable(report),
    '',
    `Replay of the main thread (${formatCount(main.length)} messages) through a host with every default hook, at a ${formatCount(window)}-token window`,
    ...replay.lines,
    '',
  ].join('\n');
}

function kindTable(report: DemoReport): string {
  const columns = [{ header: 'kind' }, ...['groups', 'messages', 'characters', 'tokens', 'orphans'].map((header) => ({ header, align: 'right' as const }))];
  const row = (kind: string, values: DemoReport['total']): string[] => [kind, ...[values.groups, values.messages, values.chars, values.tokens, values.orphans].map(formatCount)];
  return formatTable(columns, [...report.kinds.map((kind) => row(kind.kind, kind)), row('total', report.total)]);
}

function toolTable(report: DemoReport): string {
  if (report.largestToolOutputs.length === 0) return '(no tool outputs)';
  const columns = [{ header: '#', align: 'right' as const }, { header: 'message', align: 'right' as const }, { header: 'tool' }, { header: 'call id' }, { header: 'characters', align: 'right' as const }, { header: 'tokens', align: 'right' as const }];
  return formatTable(columns, report.largestToolOutputs.map((output, index) => [String(index + 1), String(output.messageIndex), output.tool, output.callId, formatCount(output.chars), formatCount(output.tokens)]));
}
