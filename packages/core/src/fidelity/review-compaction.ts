import type { FidelityConfig } from '../config/config-schema.js';
import type { Message, Part } from '../model/message.js';
import { fidelityOf, missedProbes } from './check-probes.js';
import { deriveProbes } from './derive-probes.js';
import { EMPTY_LEDGER, extendLedger, ledgerJson, ledgerOf, type Ledger } from './ledger.js';
import type { CompactionFidelity, Probe } from './probe.js';
import { renderMissed } from './render-missed.js';
import { fitLedger, renderLedger } from './render-ledger.js';

/** Suffixes of the part ids ctxhost adds to a summary message; rebuilt on every compaction, never summarized. */
export const ADDENDUM = { missed: ':ctxhost-missed', ledger: ':ctxhost-ledger', files: ':ctxhost-files' } as const;

export function isCompactionAddendum(part: Part): boolean {
  return Object.values(ADDENDUM).some((suffix) => part.id.endsWith(suffix));
}

export interface ReviewOptions {
  fidelity: FidelityConfig;
  countText(text: string): number;
}

export interface ReviewedCompaction {
  messages: Message[];
  fidelity: CompactionFidelity;
  ledger?: Ledger & { tokens: number };
  /** The message that carries the ledger and the added facts (the newest summary), by index in `messages`. */
  carrier?: number;
  /** The messages the compaction took out of view (probes and ledger come from them). */
  dropped: Message[];
  notes: string[];
}

/**
 * Checks a compaction before it is used and completes it: probes from the
 * span it took out of view are looked for in what the model will see; what is
 * missing is added beside the summary; the ledger (the previous one plus the
 * span's writes, commands, constraints and decisions) is attached to the
 * newest summary message, in `meta.ledger` and as text. No model call; linear
 * in the two lists. The result's other messages are unchanged, except that an
 * older summary loses the ledger it carried (the newest carries it now).
 */
export function reviewCompaction(
  before: readonly Message[],
  after: readonly Message[],
  options: ReviewOptions,
): ReviewedCompaction {
  const beforeIds = new Set(before.map((message) => message.id));
  const afterIds = new Set(after.map((message) => message.id));
  const dropped = before.filter((message) => !afterIds.has(message.id));
  const previous = newestLedger(before) ?? EMPTY_LEDGER;
  const messages = after.map(withoutAddenda);
  const probes = options.fidelity.probes ? deriveProbes(dropped) : [];
  const candidateMissed = missedProbes(probes, messages);
  const carrier = carrierIndex(messages, beforeIds);
  const notes: string[] = [];
  if (carrier === undefined) {
    if (candidateMissed.length > 0)
      notes.push(`fidelity: no summary message to carry the ${candidateMissed.length} missed facts; left out`);
    return { messages, fidelity: fidelityOf(probes, candidateMissed, candidateMissed), dropped, notes };
  }
  const addenda: Part[] = [];
  const carrierId = messages[carrier]!.id;
  let stillMissed: readonly Probe[] = candidateMissed;
  if (candidateMissed.length > 0) {
    const missed = renderMissed(candidateMissed, options.fidelity.repairMaxTokens, options.countText);
    if (missed.text.length > 0) addenda.push(textPart(carrierId + ADDENDUM.missed, missed.text));
    stillMissed = missed.left;
  }
  let ledger: ReviewedCompaction['ledger'];
  if (options.fidelity.ledger.enabled) {
    const fitted = fitLedger(extendLedger(previous, dropped), options.fidelity.ledger.maxTokens, options.countText);
    const text = renderLedger(fitted);
    if (text.length > 0) {
      addenda.push(textPart(carrierId + ADDENDUM.ledger, text));
      ledger = { ...fitted, tokens: options.countText(text) };
    }
  }
  if (addenda.length > 0 || ledger !== undefined) {
    const message = messages[carrier]!;
    messages[carrier] = {
      ...message,
      parts: [...message.parts, ...addenda],
      ...(ledger === undefined ? {} : { meta: { ...message.meta, ledger: ledgerJson(ledger) } }),
    };
  }
  if (stillMissed.length > 0 && addenda.length > 0) stillMissed = missedProbes(stillMissed, [messages[carrier]!]);
  return {
    messages,
    fidelity: fidelityOf(probes, candidateMissed, stillMissed),
    ...(ledger === undefined ? {} : { ledger }),
    carrier,
    dropped,
    notes,
  };
}

/** The newest ledger among messages, if any carries one. */
export function newestLedger(messages: readonly Message[]): Ledger | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const ledger = ledgerOf(messages[index]!);
    if (ledger !== undefined) return ledger;
  }
  return undefined;
}

/** A summary's own text, without what ctxhost added to it (the ledger, missed facts, re-read files). */
export function summaryTextOf(message: Message): string {
  return message.parts
    .filter((part) => !isCompactionAddendum(part))
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

function withoutAddenda(message: Message): Message {
  const meta = message.meta;
  const hasLedger = meta !== undefined && 'ledger' in meta;
  if (!hasLedger && !message.parts.some(isCompactionAddendum)) return message;
  const { ledger: _ledger, ...rest } = meta ?? {};
  const kept = message.parts.filter((part) => !isCompactionAddendum(part));
  return { ...message, parts: kept, ...(meta === undefined ? {} : { meta: rest }) };
}

/** The newest summary the compaction wrote; else the newest summary in view. */
function carrierIndex(messages: readonly Message[], beforeIds: ReadonlySet<string>): number | undefined {
  let fallback: number | undefined;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.meta?.summary === undefined) continue;
    if (!beforeIds.has(message.id)) return index;
    fallback ??= index;
  }
  return fallback;
}

function textPart(id: string, text: string): Part {
  return { id, type: 'text', text };
}
