import type { Message } from '../model/message.js';
import type { Ledger } from './ledger.js';
import { pathArgument } from './span-facts.js';

/** What an agent host is asked to re-read after a compaction. */
export interface RehydrateRequest {
  sessionId: string;
  /** Paths, most wanted first: instruction files the agent read, then the files it touched most recently. */
  paths: string[];
  signal?: AbortSignal;
}

/** A file as it is on disk now. A host leaves out what it cannot read, and marks `gone` a file that is no longer there. */
export interface RehydratedFile {
  path: string;
  content: string;
  /** Deleted or moved since the agent touched it: said in one line, so the model does not work from its memory of it. */
  gone?: boolean;
}

/** The heading of the re-read files beside a summary. */
export const REHYDRATED_HEADING =
  '## Files as they are on disk now (re-read after the compaction; the summary may describe older versions)';

const INSTRUCTION_FILES = new Set([
  'agents.md',
  'claude.md',
  'gemini.md',
  'conventions.md',
  '.cursorrules',
  'copilot-instructions.md',
]);

const isInstructionFile = (path: string) => INSTRUCTION_FILES.has(path.split('/').at(-1)!.toLowerCase());

/**
 * The paths to offer again after a compaction: instruction files read in the
 * replaced span first (they say how to work), then the files the span's tool
 * calls touched, newest first, then the ledger's files written, newest first.
 */
export function rehydrationPaths(dropped: readonly Message[], ledger: Ledger | undefined, maxFiles: number): string[] {
  const touched: string[] = [];
  for (let index = dropped.length - 1; index >= 0; index--) {
    const parts = dropped[index]!.parts;
    for (let at = parts.length - 1; at >= 0; at--) {
      const part = parts[at]!;
      if (part.type !== 'tool-call') continue;
      const path = pathArgument(part.input);
      if (path !== undefined) touched.push(path);
    }
  }
  const written = (ledger?.entries ?? []).flatMap((entry) => (entry.kind === 'file' ? [entry.path] : [])).reverse();
  const ordered = [...touched.filter(isInstructionFile), ...touched, ...written];
  return [...new Set(ordered)].slice(0, maxFiles);
}

/**
 * The re-read files as one block within `maxTokens`: whole files first come
 * first; a file that does not fit whole is cut at a line with the rest counted
 * (when a useful part fits), otherwise named as skipped.
 */
export function renderRehydrated(
  files: readonly RehydratedFile[],
  maxTokens: number,
  count: (text: string) => number,
): { text: string; files: string[]; skipped: string[] } {
  const blocks: string[] = [];
  const included: string[] = [];
  const skipped: string[] = [];
  let left = maxTokens - count(REHYDRATED_HEADING) - 10;
  for (const file of files) {
    if (file.gone === true) {
      const line = `### ${file.path}: no longer on disk (deleted or moved since the agent touched it)`;
      if (count(line) > left) continue;
      blocks.push(line);
      included.push(file.path);
      left -= count(line);
      continue;
    }
    const fence = file.content.includes('```') ? '````' : '```';
    const whole = `### ${file.path}\n${fence}\n${file.content}\n${fence}`;
    const cost = count(whole);
    if (cost <= left) {
      blocks.push(whole);
      included.push(file.path);
      left -= cost;
      continue;
    }
    const cut = cutToTokens(file.content, left - 60, count);
    if (cut === undefined) {
      skipped.push(file.path);
      continue;
    }
    const rest = file.content.slice(cut.length).split('\n').length;
    blocks.push(`### ${file.path} (first part)\n${fence}\n${cut}\n${fence}\n[… ${rest} more lines: read the file]`);
    included.push(file.path);
    left = 0;
  }
  if (blocks.length === 0) return { text: '', files: [], skipped };
  const note = skipped.length === 0 ? '' : `\n\n(Not re-read, over the budget: ${skipped.join(', ')}.)`;
  return { text: `${REHYDRATED_HEADING}\n${blocks.join('\n\n')}${note}`, files: included, skipped };
}

/** The longest run of whole lines from the start within `tokens` (at least 200), or undefined. */
function cutToTokens(content: string, tokens: number, count: (text: string) => number): string | undefined {
  if (tokens < 200) return undefined;
  const ratio = Math.max(1, content.length / Math.max(1, count(content)));
  let end = Math.floor(tokens * ratio * 0.9);
  end = content.lastIndexOf('\n', end);
  return end <= 0 ? undefined : content.slice(0, end);
}
