import { resolve } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { Command } from 'commander';
import { createClientFromEnv } from 'ctxhost';
import { displayPath } from '../display-path.js';
import { CLI_ERROR_CODES, CliError } from '../errors.js';
import { EVAL_ENGINES, parseEngineSpecs, UNCHECKED_SUFFIX } from '../eval/eval-engines.js';
import { formatEval } from '../eval/format-eval.js';
import { runEval, type EvalResult, type EvalTranscript } from '../eval/run-eval.js';
import { loadCliConfig, printConfigWarnings } from '../load-cli-config.js';
import { KNOWN_TRANSCRIPT_FORMATS, loadTranscript } from '../load-transcript.js';
import { formatJson, sayWarningsOnce, startProgress, type CliIo } from '../output/index.js';
import { writeFileReplacing } from '../output/write-file-replacing.js';
import { wholeNumberFlag } from '../parse-flags.js';
import { renderEvalReport } from '../report/render-eval-report.js';

interface EvalCommandOptions {
  engine?: string[];
  cuts: number;
  replicates: number;
  model?: string;
  window?: number;
  live?: boolean;
  json?: boolean;
  report?: string;
  config?: string;
  projectPlugins?: boolean;
  strict?: boolean;
}

/** `ctxhost eval <transcripts...>`: engines compared on your own sessions by what the model still knows after a compaction. */
export function registerEvalCommand(program: Command, io: CliIo): void {
  program
    .command('eval')
    .description(
      'compare context engines on your own transcripts: cut each at N user turns, compact with every engine, ask the model what it still knows (files, commands, errors, constraints, the ask, decisions, identifiers) and report probe recall, tokens, dollars and summarizer calls per engine',
    )
    .argument('<transcripts...>', `transcript files (${KNOWN_TRANSCRIPT_FORMATS}); the format is detected from each`)
    .option(
      '--engine <names>',
      `engines to compare, comma-separated or repeated; NAME${UNCHECKED_SUFFIX} runs one without ctxhost's fidelity check and ledger (default: ${EVAL_ENGINES.join(', ')})`,
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--cuts <n>', 'cut points per transcript, spread over its user turns', wholeNumberFlag(1, 50), 3)
    .option('--replicates <n>', 'times each cut is compacted and asked, per engine', wholeNumberFlag(1, 20), 1)
    .option('--model <name>', "the model asked (and priced); default model.name from the config, else the transcript's")
    .option(
      '--window <tokens>',
      'the window each cut is compacted for (default: the one that puts the cut at compression.threshold)',
      wholeNumberFlag(1_000),
    )
    .option(
      '--live',
      'ask the real model and summarize with it (needs ANTHROPIC_API_KEY); default: the simulator, offline',
    )
    .option('--json', 'print the result as JSON instead of the table')
    .option('--report <file>', 'write the engines side by side as one HTML page')
    .option('--config <file>', 'a config file read over the user and project ones')
    .option(
      '--project-plugins',
      'trust this project for this run: load context engines from ./.ctxhost/plugins (their code runs; off by default)',
    )
    .option('--strict', 'fail on a broken transcript line instead of skipping it')
    .addHelpText(
      'after',
      '\nExamples:\n  ctxhost eval session.jsonl --engine compressor,lcm,maf-truncation --cuts 3\n  ANTHROPIC_API_KEY=… ctxhost eval a.jsonl b.traj --live --replicates 3 --report eval.html',
    )
    .action(async (paths: string[], options: EvalCommandOptions) => {
      await evalTranscripts(paths, options, io);
    });
}

async function evalTranscripts(paths: string[], options: EvalCommandOptions, io: CliIo): Promise<EvalResult> {
  const engines = parseEngineSpecs(options.engine);
  const client = options.live === true ? liveClient() : undefined;
  const loaded = await loadCliConfig({
    cwd: process.cwd(),
    ...(options.config === undefined ? {} : { configFile: options.config }),
    trustProject: options.projectPlugins === true,
  });
  printConfigWarnings(loaded, io.err);
  const transcripts: EvalTranscript[] = [];
  for (const path of paths)
    transcripts.push({
      label: displayPath(path),
      transcript: await loadTranscript(path, { strict: options.strict === true, sidechains: false }),
    });
  const model = options.model ?? loaded.config.model.name;
  const progress = startProgress(io.err, { label: 'evaluating', total: 1, unit: 'compactions' });
  const result = await sayWarningsOnce(
    () =>
      runEval({
        transcripts,
        engines,
        cuts: options.cuts,
        replicates: options.replicates,
        config: loaded.config,
        cwd: process.cwd(),
        projectPlugins: options.projectPlugins === true,
        onPluginLoad: ({ name, file }) =>
          io.err.write(`ctxhost: loading context engine "${name}" from ${displayPath(file)} (plugin code runs)\n`),
        onProgress: (done, total) => progress.update(done, total),
        ...(model === undefined ? {} : { model }),
        ...(options.window === undefined ? {} : { window: options.window }),
        ...(client === undefined ? {} : { client }),
      }),
    (text) => io.err.write(text),
  ).finally(() => progress.stop());
  if (options.report !== undefined) await writeReport(options.report, result);
  if (options.json === true) {
    io.out.write(
      formatJson({ ...(options.report === undefined ? {} : { report: resolve(options.report) }), ...result }),
    );
    return result;
  }
  io.out.write(`${io.out.colors.bold(`ctxhost eval: ${paths.length} transcript${paths.length === 1 ? '' : 's'}`)}\n`);
  io.out.write(formatEval(result));
  if (options.report !== undefined) io.out.write(`\nreport written to ${displayPath(resolve(options.report))}\n`);
  return result;
}

function liveClient(): Anthropic {
  const client = process.env['ANTHROPIC_API_KEY'] === undefined ? null : createClientFromEnv();
  if (client === null)
    throw new CliError(
      CLI_ERROR_CODES.usage,
      '--live needs ANTHROPIC_API_KEY in the environment (the model answers and the summarizer call the real API); run without --live to stay offline on the simulator',
    );
  return client;
}

async function writeReport(file: string, result: EvalResult): Promise<void> {
  try {
    await writeFileReplacing(file, renderEvalReport(result));
  } catch (error) {
    throw new CliError(
      CLI_ERROR_CODES.fileUnwritable,
      `--report ${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      { cause: error },
    );
  }
}
