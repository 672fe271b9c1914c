/**
 * The extractive compressor: each corpus transcript compressed to a 32k window by the
 * compressor's extractive path (no summarizer). Tokens before and after, and the
 * share of file paths and failing commands of the compacted span that the
 * summary kept. Run alone: npx tsx --conditions=@ctxhost/source bench/compressor-extractive.ts
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { coveredIds, createTokenCounter, type Message } from '@ctxhost/core';
import { createCompressor } from '@ctxhost/compressor';
import { readTranscript } from '@ctxhost/transcripts';
import type { BenchSize } from './bench.js';
import { pathsTouched } from './paths-touched.js';

export interface ExtractiveRow {
  transcript: string;
  tokensBefore: number;
  tokensAfter: number;
  paths: string;
  failingCommands: string;
}

const CORPUS = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus');
const WINDOW = 32_000;

/** Smallest: one transcript per source. */
export async function runCompressorExtractive(size: BenchSize = 'full'): Promise<ExtractiveRow[]> {
  const rows: ExtractiveRow[] = [];
  for (const folder of ['claude-code', 'openhands', 'swe-agent']) {
    const files = readdirSync(join(CORPUS, folder))
      .filter((file) => /\.(jsonl|json|traj)$/.test(file))
      .sort();
    for (const name of size === 'smallest' ? files.slice(0, 1) : files) {
      const { messages } = await readTranscript(join(CORPUS, folder, name), { includeSidechains: true });
      const counter = createTokenCounter();
      const { messages: projection, report } = await createCompressor({ compression: { protectLastN: 6 } }).compress(
        messages,
        { sessionId: name, contextWindow: WINDOW, counter, reason: 'manual' },
      );
      const summary = projection.find((message) => message.meta?.summary);
      const covered = new Set(summary?.meta?.summary ? coveredIds(summary.meta.summary.covers, messages) : []);
      const span = messages.filter((message) => covered.has(message.id));
      const text =
        summary === undefined ? '' : summary.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      const paths = pathsTouched(span);
      const failing = failingCommands(span);
      rows.push({
        transcript: `${folder}/${name}`.slice(0, 48),
        tokensBefore: report.tokensBefore,
        tokensAfter: report.tokensAfter,
        paths: share(paths.filter((path) => text.includes(path)).length, paths.length),
        failingCommands: share(failing.filter((command) => text.includes(command.slice(0, 60))).length, failing.length),
      });
    }
  }
  return rows;
}

/** Commands whose result was an error, or whose output ends in one. */
function failingCommands(messages: readonly Message[]): string[] {
  const outputOf = (output: string | readonly { type: string; text?: string }[]) =>
    typeof output === 'string' ? output : output.map((block) => block.text ?? '').join('\n');
  const failed = new Set(
    messages.flatMap((message) =>
      message.parts.flatMap((part) =>
        part.type === 'tool-result' &&
        (part.isError === true || /\b(error|failed|Traceback)\b/i.test(outputOf(part.output).slice(-2000)))
          ? [part.callId]
          : [],
      ),
    ),
  );
  return messages.flatMap((message) =>
    message.parts.flatMap((part) => {
      if (
        part.type !== 'tool-call' ||
        !failed.has(part.callId) ||
        typeof part.input !== 'object' ||
        part.input === null ||
        Array.isArray(part.input)
      )
        return [];
      const command = part.input['command'];
      return typeof command === 'string' ? [command.replace(/\s+/g, ' ')] : [];
    }),
  );
}

function share(found: number, total: number): string {
  return total === 0 ? 'n/a (none)' : `${found}/${total} (${Math.round((found / total) * 100)}%)`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runCompressorExtractive());
}
