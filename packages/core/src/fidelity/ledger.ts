import { createHash } from 'node:crypto';
import type { JsonValue, Message } from '../model/message.js';
import { isConstraint, isDecision, personText, sentencesOf } from './sentences.js';
import {
  commandArgument,
  commandOutcome,
  isWriteCall,
  pathArgument,
  resultsByCall,
  writtenContent,
} from './span-facts.js';

/** One record of what was done. Entries are appended and never rewritten by a summarizer. */
export type LedgerEntry =
  | { kind: 'file'; path: string; tool: string; hash?: string; writes: number }
  | { kind: 'command'; command: string; exitCode?: number; failed: boolean; runs: number }
  | { kind: 'constraint'; text: string }
  | { kind: 'decision'; text: string };

export type LedgerKind = LedgerEntry['kind'];

/** Entries folded into counts to keep the ledger within its budget: counted, never dropped silently. */
export interface LedgerFolded {
  file: number;
  command: number;
  failedCommands: number;
  constraint: number;
  decision: number;
}

/** The ledger kept beside a summary (in the summary message's `meta.ledger`). */
export interface Ledger {
  entries: LedgerEntry[];
  folded: LedgerFolded;
}

export const EMPTY_LEDGER: Ledger = {
  entries: [],
  folded: { file: 0, command: 0, failedCommands: 0, constraint: 0, decision: 0 },
};

const SENTENCE_CHARS = 240;

/**
 * The ledger after a span: the previous ledger with the span's writes,
 * commands, the user's constraints and corrections and the decisions
 * announced appended. A file written again or a command run again moves to
 * the end (newest) with its count raised, so a long session does not repeat
 * itself. Linear in the span.
 */
export function extendLedger(previous: Ledger, span: readonly Message[]): Ledger {
  const entries = new Map<string, LedgerEntry>(previous.entries.map((entry) => [keyOf(entry), entry]));
  const put = (entry: LedgerEntry) => {
    const key = keyOf(entry);
    const before = entries.get(key);
    entries.delete(key);
    entries.set(key, merged(before, entry));
  };
  const results = resultsByCall(span);
  for (const message of span) {
    if (message.meta?.summary !== undefined) continue;
    const text = personText(message);
    if (text !== undefined && message.role === 'user')
      for (const sentence of sentencesOf(text, SENTENCE_CHARS))
        if (isConstraint(sentence)) put({ kind: 'constraint', text: sentence });
    if (text !== undefined && message.role === 'assistant')
      for (const sentence of sentencesOf(text, SENTENCE_CHARS))
        if (isDecision(sentence)) put({ kind: 'decision', text: sentence });
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      const path = pathArgument(part.input);
      if (path !== undefined && isWriteCall(part)) {
        const content = writtenContent(part.input);
        put({
          kind: 'file',
          path,
          tool: part.name,
          writes: 1,
          ...(content === undefined ? {} : { hash: fileContentHash(content) }),
        });
      }
      const command = commandArgument(part);
      if (command === undefined) continue;
      const outcome = commandOutcome(results.get(part.callId));
      put({
        kind: 'command',
        command,
        failed: outcome.failed,
        runs: 1,
        ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
      });
    }
  }
  return { entries: [...entries.values()], folded: { ...previous.folded } };
}

/** A short content hash (sha256, 12 hex digits): enough to tell two versions of a file apart. */
export function fileContentHash(content: string): string {
  return `sha256:${createHash('sha256').update(content).digest('hex').slice(0, 12)}`;
}

function keyOf(entry: LedgerEntry): string {
  switch (entry.kind) {
    case 'file':
      return `file\u0000${entry.path}`;
    case 'command':
      return `command\u0000${entry.command}`;
    default:
      return `${entry.kind}\u0000${entry.text}`;
  }
}

function merged(before: LedgerEntry | undefined, entry: LedgerEntry): LedgerEntry {
  if (before?.kind === 'file' && entry.kind === 'file') return { ...entry, writes: before.writes + entry.writes };
  if (before?.kind === 'command' && entry.kind === 'command') return { ...entry, runs: before.runs + entry.runs };
  return entry;
}

/** The ledger a message carries, if it is one ctxhost wrote (read defensively: it came back through a store). */
export function ledgerOf(message: Message): Ledger | undefined {
  const value = message.meta?.['ledger'];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = value['entries'];
  const folded = value['folded'];
  if (!Array.isArray(entries) || typeof folded !== 'object' || folded === null || Array.isArray(folded))
    return undefined;
  return {
    entries: entries.filter(isEntry) as unknown as LedgerEntry[],
    folded: { ...EMPTY_LEDGER.folded, ...(folded as unknown as Partial<LedgerFolded>) },
  };
}

function isEntry(value: JsonValue): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const kind = value['kind'];
  if (kind === 'file') return typeof value['path'] === 'string';
  if (kind === 'command') return typeof value['command'] === 'string';
  return (kind === 'constraint' || kind === 'decision') && typeof value['text'] === 'string';
}

/** The ledger as JSON for `meta.ledger`. */
export function ledgerJson(ledger: Ledger): JsonValue {
  return JSON.parse(JSON.stringify(ledger)) as JsonValue;
}
