import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { compactMessages, type CompactOutcome } from '../compact-messages.js';
import { displayPath } from '../display-path.js';
import { CLI_ERROR_CODES, CliError } from '../errors.js';
import { formatCount } from '../format-table.js';
import { loadCliConfig, printConfigWarnings } from '../load-cli-config.js';
import { lastSegmentMessages } from '@ctxhost/transcripts';
import { loadTranscript } from '../load-transcript.js';
import { formatJson, startProgress, type CliIo, type CliStream } from '../output/index.js';
import { wholeNumberFlag } from '../parse-flags.js';

interface CompactOptions {
  window?: number;
  out?: string;
  config?: string;
  engine?: string;
  json?: boolean;
  strict?: boolean;
  run?: number;
  projectPlugins?: boolean;
}

/** `ctxhost compact <transcript>`: runs the configured engine once, offline, and writes the compacted conversation as Anthropic JSON. */
export function registerCompactCommand(program: Command, io: CliIo): void {
  program
    .command('compact')
    .description(
      'run the configured context engine once over a transcript, offline, and write the compacted conversation as Anthropic Messages JSON',
    )
    .argument('<transcript>', 'transcript file (Claude Code: the main thread; subagent turns are left out)')
    .option(
      '--window <tokens>',
      'the context window to compact for (default: model.context_length, else 200000)',
      wholeNumberFlag(1),
    )
    .option('--out <file>', 'write the conversation here instead of stdout')
    .option('--config <file>', 'a config file read over the user and project config')
    .option('--engine <name>', 'the context engine (default: context.engine, else compressor)')
    .option(
      '--project-plugins',
      "trust this project for this run: load context engines from ./.ctxhost/plugins and honour its config's plugin_dirs and plugin engine (their code runs; off by default)",
    )
    .option('--json', 'print the compaction report (and the conversation, without --out) as one JSON document')
    .option('--strict', 'fail on a broken line instead of skipping it')
    .option('--run <n>', 'OpenHands multi-run JSONL: which run, from 0', wholeNumberFlag(0))
    .addHelpText(
      'after',
      '\nExamples:\n  ctxhost compact session.jsonl --window 50000 --out compacted.json\n  ctxhost compact session.jsonl --json | jq .report',
    )
    .action(async (path: string, options: CompactOptions) => {
      const progress = startProgress(io.err, { label: 'compacting', total: 3, unit: 'steps' });
      try {
        const loaded = await loadCliConfig({
          cwd: process.cwd(),
          ...(options.config === undefined ? {} : { configFile: options.config }),
          trustProject: options.projectPlugins === true,
        });
        printConfigWarnings(loaded, io.err);
        const { config } = loaded;
        const transcript = await loadTranscript(path, {
          strict: options.strict === true,
          sidechains: false,
          ...(options.run === undefined ? {} : { run: options.run }),
        });
        progress.update(1);
        // What the model last saw: from the agent's own last compaction on, without the lines it never sent.
        const seen = lastSegmentMessages(transcript).filter((message) => message.meta?.uiOnly === undefined);
        const outcome = await compactMessages(seen, {
          config,
          cwd: process.cwd(),
          projectPlugins: options.projectPlugins === true,
          onPluginLoad: ({ name, file }) =>
            io.err.write(`ctxhost: loading context engine "${name}" from ${displayPath(file)} (plugin code runs)\n`),
          ...(options.window === undefined ? {} : { window: options.window }),
          ...(options.engine === undefined ? {} : { engine: options.engine }),
        });
        progress.update(2);
        if (options.out !== undefined) await writeConversation(options.out, outcome);
        progress.stop();
        for (const warning of outcome.warnings) io.err.write(io.err.colors.yellow(`ctxhost: warning: ${warning}\n`));
        if (transcript.skipped > 0)
          io.err.write(
            io.err.colors.yellow(
              `ctxhost: ${formatCount(transcript.skipped)} broken ${transcript.skipped === 1 ? 'line' : 'lines'} skipped (--strict fails instead)\n`,
            ),
          );
        const boundaries = transcript.boundaries?.length ?? 0;
        if (boundaries > 0 && options.json !== true)
          io.err.write(
            `ctxhost: the agent compacted this session itself ${boundaries === 1 ? 'once' : `${boundaries} times`}; compacting what the model saw after its last compaction (${formatCount(seen.length)} of ${formatCount(transcript.messages.length)} messages)\n`,
          );
        writeResult(io, path, options, outcome, transcript.skipped, {
          boundaries,
          messagesInTranscript: transcript.messages.length,
        });
      } finally {
        progress.stop();
      }
    });
}

async function writeConversation(out: string, outcome: CompactOutcome): Promise<void> {
  await writeFile(out, formatJson(outcome.request)).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(
      CLI_ERROR_CODES.fileUnwritable,
      `--out ${out}: cannot write the file (${error.code ?? error.message})`,
      { cause: error },
    );
  });
}

function writeResult(
  io: CliIo,
  path: string,
  options: CompactOptions,
  outcome: CompactOutcome,
  skipped: number,
  transcript: { boundaries: number; messagesInTranscript: number },
): void {
  if (options.json) {
    const conversation = options.out === undefined ? { conversation: outcome.request } : { out: options.out };
    io.out.write(
      formatJson({
        file: path,
        engine: outcome.engine,
        window: outcome.window,
        windowSource: outcome.windowSource,
        fitsWindow: outcome.report.tokensAfter <= outcome.window,
        skipped,
        ...transcript,
        conversationMessages: outcome.request.messages.length,
        report: outcome.report,
        ...conversation,
      }),
    );
    return;
  }
  // With the conversation on stdout, the summary goes to stderr so the JSON stays clean.
  const summary = options.out === undefined ? io.err : io.out;
  if (options.out === undefined) io.out.write(formatJson(outcome.request));
  summary.write(
    `${summaryLines(path, options, outcome, summary)
      .map((line) => `${line}\n`)
      .join('')}`,
  );
}

function summaryLines(path: string, options: CompactOptions, outcome: CompactOutcome, stream: CliStream): string[] {
  const { report } = outcome;
  const windowNote = outcome.windowSource === 'default' ? ' (default; set --window or model.context_length)' : '';
  const summary =
    report.summary === undefined
      ? 'no summary'
      : `a summary (${report.summary.source}) of ${formatCount(report.summary.messagesCovered)} messages in ${formatCount(report.summary.tokens)} tokens`;
  return [
    `ctxhost compact: ${displayPath(path)} with the ${outcome.engine} engine at a ${formatCount(outcome.window)}-token window${windowNote}`,
    `tokens ${formatCount(report.tokensBefore)} → ${formatCount(report.tokensAfter)} (${saved(report.tokensBefore, report.tokensAfter)}), messages ${formatCount(report.messagesBefore)} → ${formatCount(report.messagesAfter)}${wireNote(report.messagesAfter, outcome.request.messages.length)}, ${summary}${report.prunedToolOutputs ? `, ${formatCount(report.prunedToolOutputs)} tool outputs pruned` : ''}`,
    ...(report.notes ?? []).map((note) => `note: ${note}`),
    ...(report.tokensAfter > outcome.window
      ? [
          stream.colors.yellow(
            `still over the window: ${formatCount(report.tokensAfter)} tokens > ${formatCount(outcome.window)}${outcome.engine === 'compressor' ? '; the compressor keeps the first 3 and the last compression.protect_last_n messages whole' : ''}`,
          ),
        ]
      : []),
    ...(options.out === undefined
      ? []
      : [`wrote ${displayPath(options.out)} (Anthropic Messages JSON: system and messages)`]),
  ];
}

/** The Anthropic JSON joins a tool message and the user text after it into one user turn: say so when the counts differ. */
function wireNote(messages: number, wire: number): string {
  return messages === wire
    ? ''
    : ` (${formatCount(wire)} in the Anthropic JSON, where tool results and user text share a turn)`;
}

function saved(before: number, after: number): string {
  if (before === 0) return 'nothing to compact';
  return `${formatCount(before - after)} fewer, ${(((before - after) / before) * 100).toFixed(1)}% saved`;
}
