import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { createFileStore, createHost, readOriginal, type Host, type Session, type StoredEvent } from '@ctxhost/core';
import { createDefaultHost } from 'ctxhost';
import { DEFAULT_COMPACT_WINDOW } from '../compact-messages.js';
import { CLI_ERROR_CODES, CliError } from '../errors.js';
import { loadCliConfig } from '../load-cli-config.js';
import { loadTranscript } from '../load-transcript.js';
import { formatJson, type CliIo } from '../output/index.js';
import { wholeNumberFlag } from '../parse-flags.js';
import { compactionView, renderCompactionView } from '../show/compaction-view.js';

interface ShowOptions {
  compaction?: number;
  original?: string;
  store?: string;
  window?: number;
  json?: boolean;
}

const TRANSCRIPT_SESSION = 'ctxhost-show';

/** `ctxhost show <transcript|session> --compaction N`: a compaction's summary, ledger and dropped span; `--original` reads a handle offline. */
export function registerShowCommand(program: Command, io: CliIo): void {
  program
    .command('show')
    .description(
      "print one compaction of a stored session (or of a transcript, compacted once offline): its report and fidelity, the summary, ctxhost's ledger and additions, and the messages it took out of view",
    )
    .argument('<target>', 'a transcript file, or the id of a session in the store')
    .option('--compaction <n>', 'which compaction, from 1 (default 1)', wholeNumberFlag(1))
    .option('--original <handle>', 'print the original behind a handle instead (a message or part id, or summary-…#N)')
    .option('--store <dir>', 'the session store folder (default: store.path, else the data folder)')
    .option('--window <tokens>', 'a transcript: the window to compact for (default 200000)', wholeNumberFlag(1))
    .option('--json', 'print the compaction as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  ctxhost show session.jsonl --window 50000\n  ctxhost show my-session-id --compaction 2\n  ctxhost show my-session-id --original summary-1a2b3c4d#3',
    )
    .action(async (target: string, options: ShowOptions) => {
      const { host, sessionId } = existsSync(target)
        ? await compactTranscript(target, options)
        : await openStored(target, options);
      try {
        const session = await host.session(sessionId);
        if (options.original !== undefined) {
          io.out.write(`${await originalOf(session, options.original)}\n`);
          return;
        }
        const events: StoredEvent[] = await host.store.read(sessionId);
        const number = options.compaction ?? 1;
        const view = compactionView(events, number);
        if (view === undefined) {
          const count = events.filter((event) => event.type === 'compaction.applied').length;
          throw new CliError(
            CLI_ERROR_CODES.usage,
            `show: ${target} has ${count} compaction${count === 1 ? '' : 's'}, not ${number}; pick --compaction between 1 and ${Math.max(1, count)}`,
          );
        }
        io.out.write(options.json === true ? formatJson(view) : renderCompactionView(view));
      } finally {
        await host.dispose();
      }
    });
}

async function originalOf(session: Session, handle: string): Promise<string> {
  const result = await readOriginal(session, { handle, toLine: 100_000 });
  if (result.isError === true) throw new CliError(CLI_ERROR_CODES.usage, `show --original: ${result.output}`);
  return result.output;
}

/** A transcript: compacted once on a memory store, the way `ctxhost compact` does. */
async function compactTranscript(path: string, options: ShowOptions): Promise<{ host: Host; sessionId: string }> {
  const transcript = await loadTranscript(path, { strict: false, sidechains: false });
  const { config } = await loadCliConfig({ cwd: process.cwd() });
  const window = options.window ?? config.model.contextLength ?? DEFAULT_COMPACT_WINDOW;
  const host = await createDefaultHost({
    config: { ...config, store: { kind: 'memory' }, model: { ...config.model, contextLength: window } },
  });
  const session = await host.session(TRANSCRIPT_SESSION);
  for (const message of transcript.messages) await session.append(message);
  const outcome = await host.compact(TRANSCRIPT_SESSION, { contextWindow: window });
  if (outcome.status !== 'completed') {
    await host.dispose();
    throw new CliError(
      CLI_ERROR_CODES.compactionFailed,
      `show: ${path} was not compacted at a ${window.toLocaleString('en-US')}-token window (${outcome.status}${'report' in outcome && outcome.report.notes?.length ? `: ${outcome.report.notes.join('; ')}` : ''}); try a smaller --window`,
    );
  }
  return { host, sessionId: TRANSCRIPT_SESSION };
}

/** A session in the file store, opened read-only in spirit: nothing is appended. */
async function openStored(sessionId: string, options: ShowOptions): Promise<{ host: Host; sessionId: string }> {
  const { config } = await loadCliConfig({ cwd: process.cwd() });
  const directory = options.store ?? config.store.path;
  const store = createFileStore(directory === undefined ? {} : { directory });
  const known = await store.list();
  if (!known.includes(sessionId)) {
    await store.close();
    throw new CliError(
      CLI_ERROR_CODES.fileUnreadable,
      `show: ${sessionId} is neither a file nor a session in the store at ${store.directory} (${known.length} sessions there); pass a transcript path, or --store <dir>`,
    );
  }
  return { host: createHost({ config, store }), sessionId };
}
