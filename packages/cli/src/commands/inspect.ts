import type { Command } from 'commander';
import { displayPath } from '../display-path.js';
import { formatCount, formatTable } from '../format-table.js';
import { toolOutputTable } from '../tool-output-table.js';
import { buildInspectReport, type InspectReport, type UsageSummary } from '../inspect-report.js';
import { loadCliConfig, printConfigWarnings } from '../load-cli-config.js';
import { KNOWN_TRANSCRIPT_FORMATS, loadTranscript } from '../load-transcript.js';
import { formatJson, type CliIo } from '../output/index.js';
import { wholeNumberFlag } from '../parse-flags.js';

interface InspectOptions {
  json?: boolean;
  config?: string;
  model?: string;
  strict?: boolean;
  sidechains: boolean;
  run?: number;
}

/** `ctxhost inspect <transcript>`: format, messages, groups and tokens by kind, largest tool outputs, reported usage and cost. */
export function registerInspectCommand(program: Command, io: CliIo): void {
  program
    .command('inspect')
    .description(
      `import a transcript (${KNOWN_TRANSCRIPT_FORMATS}) and report its messages, groups and tokens by kind, largest tool outputs, and reported usage and cost`,
    )
    .argument('<transcript>', 'transcript file; the format is detected from its content')
    .option('--json', 'print the report as JSON')
    .option('--strict', 'fail on a broken line instead of skipping it')
    .option('--no-sidechains', 'leave out Claude Code subagent (sidechain) turns')
    .option(
      '--config <file>',
      'a config file read over the user and project ones (its models: section prices the requests)',
    )
    .option('--run <n>', 'OpenHands multi-run JSONL: which run, from 0', wholeNumberFlag(0))
    .option(
      '--model <name>',
      "price every request as this model (default: each request's own model from the transcript)",
    )
    .addHelpText(
      'after',
      '\nExamples:\n  ctxhost inspect ~/.claude/projects/my-project/session.jsonl\n  ctxhost inspect run.jsonl --run 2 --json',
    )
    .action(async (path: string, options: InspectOptions) => {
      const transcript = await loadTranscript(path, {
        strict: options.strict === true,
        sidechains: options.sidechains,
        ...(options.run === undefined ? {} : { run: options.run }),
      });
      const loaded = await loadCliConfig({
        cwd: process.cwd(),
        ...(options.config === undefined ? {} : { configFile: options.config }),
      });
      printConfigWarnings(loaded, io.err);
      const report = buildInspectReport(transcript, {
        models: loaded.config.models,
        ...(options.model === undefined ? {} : { model: options.model }),
      });
      if (options.json)
        io.out.write(
          formatJson({
            file: path,
            sidechains: transcript.format === 'claude-code' ? options.sidechains : undefined,
            ...report,
          }),
        );
      else io.out.write(renderInspectReport(path, report, options, io));
    });
}

function renderInspectReport(path: string, report: InspectReport, options: InspectOptions, io: CliIo): string {
  const { bold, yellow } = io.out.colors;
  const roles = (['system', 'user', 'assistant', 'tool'] as const)
    .filter((role) => report.roles[role] > 0)
    .map((role) => `${role} ${formatCount(report.roles[role])}`);
  const details = [
    `format ${report.format}`,
    `${formatCount(report.messages)} messages (${roles.join(', ')})`,
    ...(report.format === 'claude-code' ? [options.sidechains ? 'sidechains included' : 'main thread only'] : []),
    ...(typeof report.meta['runs'] === 'number'
      ? [`run ${String(report.meta['run'] ?? 0)} of ${report.meta['runs']}`]
      : []),
  ];
  return [
    bold(`ctxhost inspect: ${displayPath(path)}`),
    details.join(', '),
    ...(report.skipped > 0
      ? [
          yellow(
            `${formatCount(report.skipped)} broken ${report.skipped === 1 ? 'line' : 'lines'} skipped (--strict fails instead)`,
          ),
        ]
      : []),
    '',
    ...boundaryLines(report),
    bold('Groups and tokens by kind (tokens: ctxhost estimate)'),
    kindTable(report),
    '',
    bold('Largest tool outputs'),
    toolOutputTable(report.largestToolOutputs),
    '',
    ...usageLines(report.usage, io),
  ].join('\n');
}

/** The agent's own compactions and the lines it never sent: what the model actually saw. */
function boundaryLines(report: InspectReport): string[] {
  const lines: string[] = [];
  if (report.boundaries.length > 0) {
    const times = report.boundaries.length === 1 ? 'once' : `${report.boundaries.length} times`;
    lines.push(
      `The agent compacted its own conversation ${times}; the model saw only what follows the last boundary (message ${report.boundaries.at(-1)!.messageIndex} on):`,
    );
    for (const boundary of report.boundaries) {
      const sizes =
        boundary.preTokens === undefined
          ? ''
          : `, ${formatCount(boundary.preTokens)} tokens before${boundary.postTokens === undefined ? '' : `, ${formatCount(boundary.postTokens)} after`}`;
      lines.push(
        `  line ${boundary.line}: ${boundary.trigger ?? 'a compaction (the transcript does not say what started it)'}${sizes}, the summary is message ${boundary.summaryIndex ?? boundary.messageIndex}${boundary.source === 'summary-message' ? ' (no boundary record, only the summary)' : ''}`,
      );
    }
  }
  if (report.repeatedAfterCompaction > 0)
    lines.push(
      `${formatCount(report.repeatedAfterCompaction)} ${report.repeatedAfterCompaction === 1 ? 'message' : 'messages'} the agent kept and sent again after its compactions: counted once below`,
    );
  if (report.uiOnlyMessages > 0)
    lines.push(
      `${formatCount(report.uiOnlyMessages)} UI-only ${report.uiOnlyMessages === 1 ? 'message' : 'messages'} (local commands, their output, interruptions): logged, never sent to the model`,
    );
  return lines.length === 0 ? [] : [...lines, ''];
}

function kindTable(report: InspectReport): string {
  const columns = [
    { header: 'kind' },
    ...['groups', 'messages', 'characters', 'tokens', 'orphans'].map((header) => ({ header, align: 'right' as const })),
  ];
  const row = (kind: string, values: InspectReport['total']): string[] => [
    kind,
    ...[values.groups, values.messages, values.chars, values.tokens, values.orphans].map(formatCount),
  ];
  return formatTable(columns, [...report.groups.map((kind) => row(kind.kind, kind)), row('total', report.total)]);
}

function usageLines(usage: UsageSummary | null, io: CliIo): string[] {
  const { bold, yellow } = io.out.colors;
  if (usage === null) return ['No API-reported usage in this transcript.', ''];
  const heading = `Reported usage: ${formatCount(usage.requests)} requests, peak prompt ${formatCount(usage.peakPromptTokens)} tokens, last ${formatCount(usage.lastPromptTokens)}, output ${formatCount(usage.outputTokens)}`;
  const columns = [
    'model',
    'requests',
    'uncached in',
    'cache write',
    'cache read',
    'output',
    'cost',
    'without caching',
    'cache hits',
  ].map((header, index) => ({ header, align: index === 0 ? ('left' as const) : ('right' as const) }));
  const rows = usage.byModel.map((cost) =>
    cost.priced
      ? [
          cost.model,
          formatCount(cost.requests),
          formatCount(cost.tokens.uncachedInput),
          formatCount(cost.tokens.cacheWrite5m + cost.tokens.cacheWrite1h),
          formatCount(cost.tokens.cacheRead),
          formatCount(cost.tokens.output),
          dollars(cost.dollars.total),
          dollars(cost.withoutCaching),
          `${(cost.cacheHitRatio * 100).toFixed(1)}%`,
        ]
      : [
          cost.model,
          formatCount(cost.requests),
          formatCount(cost.tokens.uncachedInput),
          formatCount(cost.tokens.cacheWrite5m + cost.tokens.cacheWrite1h),
          formatCount(cost.tokens.cacheRead),
          formatCount(cost.tokens.output),
          'no price',
          '',
          '',
        ],
  );
  const unpriced = usage.byModel.flatMap((cost) => (cost.priced ? [] : [yellow(`  ${cost.model}: ${cost.reason}`)]));
  return [
    bold(heading),
    formatTable(columns, rows),
    ...unpriced,
    `Total ${dollars(usage.dollars)} with caching, ${dollars(usage.withoutCaching)} without (default list prices)`,
    '',
  ];
}

function dollars(value: number): string {
  return `$${value.toFixed(value >= 1 ? 2 : 4)}`;
}
