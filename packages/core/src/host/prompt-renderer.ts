import type { Message } from '../model/message.js';

export interface PromptRendererOptions<T> {
  /** One message as the framework's items (depends on the message alone: it is memoised per message object). */
  render(message: Message): readonly T[];
  /** A number kept summed over the messages (e.g. how many carry a provider's compaction), counted for changed messages only. */
  tally?(message: Message): number;
}

export interface RenderedPrompt<T> {
  /** Every message's items in order; a new array on each call (the caller may keep or change it). */
  items: T[];
  /** The sum of `tally` over the messages (0 without one). */
  tally: number;
}

export interface PromptRenderer<T> {
  render(messages: readonly Message[]): RenderedPrompt<T>;
}

interface Rendered<T> {
  messages: Message[];
  items: T[];
  /** Where each message's items end in `items`. */
  ends: number[];
  tally: number;
}

/**
 * Renders a projection into a framework's request, keeping the last rendering: the next projection
 * of the same view holds the same message objects at the same places except what is new or marked
 * (a cache breakpoint moved, a message appended), so only those messages are rendered and the rest
 * of the last request is copied. The cost of a call is a pointer compare and a copy per message,
 * plus rendering what changed. Keep one renderer per view (its originals) and rendering settings.
 */
export function createPromptRenderer<T>(options: PromptRendererOptions<T>): PromptRenderer<T> {
  const memo = new WeakMap<Message, readonly T[]>();
  const renderOne = (message: Message): readonly T[] => {
    let items = memo.get(message);
    if (items === undefined) {
      items = options.render(message);
      memo.set(message, items);
    }
    return items;
  };
  const tallyOf = (message: Message): number => options.tally?.(message) ?? 0;
  let last: Rendered<T> | undefined;
  return {
    render(messages) {
      last = update(last ?? { messages: [], items: [], ends: [], tally: 0 }, messages, renderOne, tallyOf);
      return { items: last.items.slice(), tally: last.tally };
    },
  };
}

function update<T>(
  last: Rendered<T>,
  messages: readonly Message[],
  renderOne: (message: Message) => readonly T[],
  tallyOf: (message: Message) => number,
): Rendered<T> {
  const limit = Math.min(last.messages.length, messages.length);
  const items = last.items.slice(0, limit === 0 ? 0 : last.ends[limit - 1]);
  const ends = last.ends.slice(0, limit);
  let tally = last.tally;
  for (let index = limit; index < last.messages.length; index++) tally -= tallyOf(last.messages[index]!);
  // Messages at the same place that are other objects: patched in place while they render to as many items.
  let from = limit;
  for (let index = 0; index < limit; index++) {
    const message = messages[index]!;
    const old = last.messages[index]!;
    if (message === old) continue;
    const rendered = renderOne(message);
    const start = index === 0 ? 0 : ends[index - 1]!;
    if (rendered.length !== ends[index]! - start) {
      from = index;
      break;
    }
    for (let offset = 0; offset < rendered.length; offset++) items[start + offset] = rendered[offset]!;
    tally += tallyOf(message) - tallyOf(old);
  }
  if (from < limit) {
    for (let index = from; index < limit; index++) tally -= tallyOf(last.messages[index]!);
    items.length = from === 0 ? 0 : ends[from - 1]!;
    ends.length = from;
  }
  for (let index = from; index < messages.length; index++) {
    const message = messages[index]!;
    for (const item of renderOne(message)) items.push(item);
    ends.push(items.length);
    tally += tallyOf(message);
  }
  return { messages: messages.slice(), items, ends, tally };
}
