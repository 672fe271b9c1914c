import { resolve } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { Command } from 'commander';
import { createClientFromEnv } from 'ctxhost';
import { displayPath } from '../display-path.js';
import { CLI_ERROR_CODES, CliError } from '../errors.js';
import { loadCliConfig, printConfigWarnings } from '../load-cli-config.js';
import { KNOWN_TRANSCRIPT_FORMATS, loadTranscript } from '../load-transcript.js';
import { formatJson, sayWarningsOnce, startProgress, type CliIo } from '../output/index.js';
import { writeFileReplacing } from '../output/write-file-replacing.js';
import { wholeNumberFlag } from '../parse-flags.js';
import { renderReport } from '../report/render-report.js';
import { formatReplayEvent, formatReplaySummary } from '../replay/format-replay.js';
import { runReplay, type ReplayResult } from '../replay/run-replay.js';

export interface ReplayCommandOptions {
  window?: number;
  apiLimit?: number;
  config?: string;
  engine?: string;
  report?: string;
  json?: boolean;
  live?: boolean;
  strict?: boolean;
  sidechains: boolean;
  run?: number;
  model?: string;
  /** commander's `--no-reconstruct`: false leaves the stand-in prefix out. */
  reconstruct?: boolean;
  /** `--warm-start`: start with the cache the recording shows (its system prompt and tools, warmed before the session). */
  warmStart?: boolean;
  /** `--project-plugins`: also load engines from `./.ctxhost/plugins` (runs their code). */
  projectPlugins?: boolean;
}

/** The window when neither `--window` nor `model.context_length` gives one: Claude's standard 200k. */
export const DEFAULT_REPLAY_WINDOW = 200_000;

/** `ctxhost replay <transcript>`: the session through a real host, the assistant played back by the simulator over HTTP. */
export function registerReplayCommand(program: Command, io: CliIo): void {
  program
    .command('replay')
    .description(
      'replay a transcript through a real host (every hook as configured): user turns and tool outputs as recorded, the assistant played back by the simulator through the Anthropic SDK; prints compactions, overflows, recoveries and toasts, then tokens and dollars with and without caching',
    )
    .argument('<transcript>', `transcript file (${KNOWN_TRANSCRIPT_FORMATS}); the format is detected from its content`)
    .option(
      '--window <tokens>',
      `the host's context window (default: model.context_length from the config, else ${DEFAULT_REPLAY_WINDOW.toLocaleString('en-US')})`,
      wholeNumberFlag(1_000),
    )
    .option(
      '--api-limit <tokens>',
      'the limit the simulated API enforces (default: the window); lower it to see overflows the host did not foresee recovered',
      wholeNumberFlag(1_000),
    )
    .option('--config <file>', 'a config file read over the user and project ones')
    .option('--engine <name>', 'the context engine (context.engine)')
    .option(
      '--project-plugins',
      "trust this project for this run: load context engines from ./.ctxhost/plugins and honour its config's plugin_dirs and plugin engine (their code runs; off by default)",
    )
    .option('--report <file>', 'write the HTML report (charts and a table of compactions) to this file')
    .option('--json', 'print the result as JSON instead of text')
    .option(
      '--live',
      'summarize with the real API (needs ANTHROPIC_API_KEY); the assistant is still played back offline',
    )
    .option('--strict', 'fail on a broken transcript line instead of skipping it')
    .option('--no-sidechains', 'leave out Claude Code subagent (sidechain) conversations')
    .option('--run <n>', 'OpenHands multi-run JSONL: which run, from 0', wholeNumberFlag(0))
    .option(
      '--no-reconstruct',
      'leave out the stand-in for the system prompt and tools the transcript did not log (the replayed prompts are then smaller than the recorded ones)',
    )
    .option(
      '--warm-start',
      'start with the cache the recording shows: the system prompt and tools its first request read from the cache (warmed before the session) are read, not written, when ctxhost sends them unchanged (default: the replay starts cold)',
    )
    .option(
      '--model <name>',
      "send and price every call as this model (default: model.name from the config, else each recorded turn's own model)",
    )
    .addHelpText(
      'after',
      '\nExamples:\n  ctxhost replay ~/.claude/projects/my-project/session.jsonl --window 50000 --report report.html\n  ctxhost replay session.jsonl --window 20000 --api-limit 17000 --json',
    )
    .action(async (path: string, options: ReplayCommandOptions) => {
      await replayTranscript(path, options, io);
    });
}

/** Replays and prints as it goes (or JSON at the end); writes the report when asked. Shared with `ctxhost demo`. */
export async function replayTranscript(
  path: string,
  options: ReplayCommandOptions & { header?: boolean },
  io: CliIo,
): Promise<ReplayResult> {
  const summaryClient = options.live === true ? liveClient() : undefined;
  const loaded = await loadCliConfig({
    cwd: process.cwd(),
    ...(options.config === undefined ? {} : { configFile: options.config }),
    trustProject: options.projectPlugins === true,
  });
  printConfigWarnings(loaded, io.err);
  const { config } = loaded;
  const transcript = await loadTranscript(path, {
    strict: options.strict === true,
    sidechains: options.sidechains,
    ...(options.run === undefined ? {} : { run: options.run }),
  });
  const window = options.window ?? config.model.contextLength ?? DEFAULT_REPLAY_WINDOW;
  const { out, err } = io;
  if (options.json !== true && options.header !== false) {
    out.write(`${out.colors.bold(`ctxhost replay: ${displayPath(path)}`)}\n`);
    out.write(
      `format ${transcript.format}, ${transcript.messages.length.toLocaleString('en-US')} messages${transcript.skipped > 0 ? `, ${transcript.skipped} broken lines skipped (--strict fails instead)` : ''}; window ${window.toLocaleString('en-US')} tokens${options.apiLimit === undefined ? '' : `, the simulated API stops at ${options.apiLimit.toLocaleString('en-US')}`}\n`,
    );
  }
  const progress = startProgress(err, { label: 'replaying', total: 1, unit: 'assistant turns' });
  const model = options.model ?? config.model.name;
  const result = await sayWarningsOnce(
    () =>
      runReplay({
        messages: transcript.messages,
        ...(transcript.boundaries === undefined
          ? {}
          : { boundaries: transcript.boundaries.map((boundary) => boundary.messageIndex) }),
        ...(transcript.usage === undefined ? {} : { usage: transcript.usage }),
        ...(model === undefined ? {} : { model }),
        reconstructPrefix: options.reconstruct !== false,
        warmStart: options.warmStart === true,
        window,
        config,
        cwd: process.cwd(),
        projectPlugins: options.projectPlugins === true,
        onPluginLoad: ({ name, file }) =>
          err.write(`ctxhost: loading context engine "${name}" from ${displayPath(file)} (plugin code runs)\n`),
        ...(options.apiLimit === undefined ? {} : { contextLimit: options.apiLimit }),
        ...(options.engine === undefined ? {} : { engine: options.engine }),
        ...(summaryClient === undefined ? {} : { summaryClient }),
        onEvent: (event) => {
          if (options.json === true) return;
          if (err.isTTY) err.write('\r\x1b[2K');
          out.write(`${formatReplayEvent(event, out.colors)}\n`);
        },
        onProgress: (answered, total) => progress.update(answered, total),
      }),
    (text) => err.write(text),
  ).finally(() => progress.stop());
  if (options.report !== undefined) await writeReport(options.report, path, result);
  if (options.json === true) {
    out.write(
      formatJson({
        transcript: path,
        format: transcript.format,
        ...(options.report === undefined ? {} : { report: resolve(options.report) }),
        ...result,
      }),
    );
    return result;
  }
  out.write(`\n${formatReplaySummary(result, out.colors).join('\n')}\n`);
  if (options.report !== undefined) out.write(`\nreport written to ${displayPath(resolve(options.report))}\n`);
  return result;
}

function liveClient(): Anthropic {
  const client = process.env['ANTHROPIC_API_KEY'] === undefined ? null : createClientFromEnv();
  if (client === null)
    throw new CliError(
      CLI_ERROR_CODES.usage,
      '--live needs ANTHROPIC_API_KEY in the environment (the summarizer calls the real API); run without --live to stay offline',
    );
  return client;
}

async function writeReport(file: string, transcript: string, result: ReplayResult): Promise<void> {
  try {
    await writeFileReplacing(file, renderReport({ transcript: displayPath(transcript), result }));
  } catch (error) {
    throw new CliError(
      CLI_ERROR_CODES.fileUnwritable,
      `--report ${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      { cause: error },
    );
  }
}
