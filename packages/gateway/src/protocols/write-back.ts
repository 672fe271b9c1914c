import type { Message, Part, PromptOriginals, WireTurns } from '@ctxhost/core';
import type { PromptItem } from './prompt-item.js';
import type { ReadRequest } from './wire-protocol.js';

/** The prompt of a request read by core's shared reading: the system prompt (if any), then each message with its items. */
export function promptOf(turns: WireTurns, items: readonly unknown[]): Pick<ReadRequest, 'prompt' | 'pinned'> {
  const prompt: PromptItem[] = [];
  const system = turns.request.system;
  if (system !== undefined && system.length > 0)
    prompt.push({ kind: 'system', turn: { role: 'system', content: system }, raw: [], first: -1 });
  turns.request.messages.forEach((turn, index) =>
    prompt.push({
      kind: 'turn',
      turn,
      raw: (turns.sources[index] ?? []).map((source) => items[source]),
      first: turns.sources[index]?.[0] ?? -1,
    }),
  );
  const firstTurn = Math.min(...turns.sources.map((sources) => sources[0] ?? Infinity));
  const pinned = turns.systemSources
    .filter((index) => index > firstTurn)
    .map((index) => ({ index, raw: items[index] }));
  return { prompt, pinned };
}

/**
 * The request's items for a projection: each message the projection keeps
 * unchanged goes out as the caller's own items; a changed or new one (a
 * summary, a shortened tool output) is written by `writeMessage`. The system
 * prompt is not an item here (it stays where it was); system items between
 * messages keep their place before the first later message that is kept.
 */
export function rebuildItems(
  read: ReadRequest,
  messages: readonly Message[],
  originals: PromptOriginals<PromptItem, unknown>,
  writeMessage: (message: Message, source: PromptItem | undefined) => unknown[],
  leading: readonly unknown[] = [],
  keep: (message: Message, source: PromptItem) => unknown[] = (_, source) => source.raw,
): unknown[] {
  const out: unknown[] = [...leading];
  const pinned = [...read.pinned];
  // A view may have been built from another request with the same opening: its items are that request's. This request's own item at the same place says the same.
  const own = new Map(read.prompt.map((item) => [item.first, item]));
  for (const message of messages) {
    if (message.role === 'system') continue;
    const known = originals.message(message.id);
    const source = known === undefined ? undefined : own.get(known.first);
    const position = source?.first;
    while (position !== undefined && pinned.length > 0 && pinned[0]!.index < position) out.push(pinned.shift()!.raw);
    if (source !== undefined && unchanged(message, source, originals)) out.push(...keep(message, source));
    else out.push(...writeMessage(message, source));
  }
  for (const rest of pinned) out.push(rest.raw);
  return out;
}

function unchanged(message: Message, source: PromptItem, originals: PromptOriginals<PromptItem, unknown>): boolean {
  const blocks = typeof source.turn.content === 'string' ? 1 : source.turn.content.length;
  return message.parts.length === blocks && message.parts.every((part) => originals.unchangedPart(part) !== undefined);
}

/** A tool result's output as text. */
export function resultText(part: Extract<Part, { type: 'tool-result' }>): string {
  if (typeof part.output === 'string') return part.output;
  return part.output.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Joins adjacent messages of one role where at least one of the two was written (some APIs want turns to alternate). */
export function mergeAdjacent<T>(
  items: readonly T[],
  written: ReadonlySet<T>,
  roleOf: (item: T) => string,
  merge: (a: T, b: T) => T,
): T[] {
  const out: T[] = [];
  const made = new Set<T>(written);
  for (const item of items) {
    const previous = out.at(-1);
    if (previous !== undefined && roleOf(previous) === roleOf(item) && (made.has(previous) || made.has(item))) {
      const merged = merge(previous, item);
      made.add(merged);
      out[out.length - 1] = merged;
    } else out.push(item);
  }
  return out;
}
