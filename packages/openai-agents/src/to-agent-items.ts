import {
  NO_READABLE_COPY,
  createPromptRenderer,
  nativeCompactionOf,
  type CallerList,
  openAICompactionItemOf,
  type Message,
  type Part,
  type PromptOriginals,
  type PromptRenderer,
} from '@ctxhost/core';
import type { AgentInputItem } from '@openai/agents';
import type { InstructionsItem, MirrorItem } from './from-agent-items.js';

/**
 * What the request waterfall made of the session, as Agents SDK input items:
 * items a hook left alone go out as the caller's objects; a shortened tool
 * output keeps its item with the new text; a summary becomes a message item.
 * The instructions item is left out (the SDK sends instructions apart). With `caller` (the run's own
 * input), that input itself when the items are exactly it.
 */
export function toAgentItems(
  messages: readonly Message[],
  originals: PromptOriginals<MirrorItem, unknown>,
  caller?: CallerList<AgentInputItem>,
): { instructions: string | undefined; input: AgentInputItem[]; holdsOpenAICompaction: boolean } {
  const rendered = rendererFor(originals).render(messages, 0, caller);
  const instructionsCount = rendered.tally % COMPACTION_TALLY;
  // The instructions item is the head system message; anywhere else (counted while rendering) it is looked for.
  let instructions: string | undefined;
  let found = 0;
  for (let index = 0; index < messages.length && messages[index]!.role === 'system'; index++) {
    const source = originals.message(messages[index]!.id);
    if (isInstructions(source)) {
      instructions = source.content;
      found++;
    }
  }
  if (instructionsCount > found)
    for (const message of messages) {
      const source = originals.message(message.id);
      if (isInstructions(source)) instructions = source.content;
    }
  return { instructions, input: rendered.items, holdsOpenAICompaction: rendered.tally >= COMPACTION_TALLY };
}

/**
 * The renderer's one tally counts two things kept up to date together: each instructions item by 1 and
 * each message holding OpenAI's compaction item by this (no prompt holds 2^24 instructions items).
 */
const COMPACTION_TALLY = 2 ** 24;

function tallyOf(message: Message, originals: PromptOriginals<MirrorItem, unknown>): number {
  const instructions = message.role === 'system' && isInstructions(originals.message(message.id)) ? 1 : 0;
  const compaction = message.parts.some((part) => openAICompactionItemOf(part) !== undefined) ? COMPACTION_TALLY : 0;
  return instructions + compaction;
}

/** Per view (its originals), its renderer: the next call renders only the messages that are new or replaced. */
const renderers = new WeakMap<PromptOriginals<MirrorItem, unknown>, PromptRenderer<AgentInputItem>>();

function rendererFor(originals: PromptOriginals<MirrorItem, unknown>): PromptRenderer<AgentInputItem> {
  let renderer = renderers.get(originals);
  if (renderer === undefined) {
    renderer = createPromptRenderer({
      render: (message) => render(message, originals),
      tally: (message) => tallyOf(message, originals),
    });
    renderers.set(originals, renderer);
  }
  return renderer;
}

function isInstructions(source: MirrorItem | undefined): source is InstructionsItem {
  return source !== undefined && 'instructionsOnly' in source;
}

/** One message as input items: the caller's item when no hook changed it, none for the instructions (sent apart). */
function render(message: Message, originals: PromptOriginals<MirrorItem, unknown>): AgentInputItem[] {
  const same = originals.sameMessage(message);
  if (same !== undefined) return isInstructions(same) ? [] : [same];
  const source = originals.message(message.id);
  if (isInstructions(source)) return [];
  const unchanged = source !== undefined && message.parts.every((part) => originals.unchangedPart(part) !== undefined);
  return unchanged ? [source] : rebuild(message, source);
}

function rebuild(message: Message, source: MirrorItem | undefined): AgentInputItem[] {
  if (message.parts.length === 1 && message.parts[0]!.type === 'tool-result') {
    const part = message.parts[0]!;
    const output =
      typeof part.output === 'string'
        ? part.output
        : part.output.map((entry) => ('text' in entry ? entry.text : '')).join('');
    const template = source as Extract<AgentInputItem, { type: 'function_call_result' }> | undefined;
    return [
      {
        ...(template ?? { type: 'function_call_result', name: part.name ?? 'tool', status: 'completed' }),
        callId: part.callId,
        output: { type: 'text', text: output },
      } as AgentInputItem,
    ];
  }
  const items: AgentInputItem[] = [];
  // OpenAI's compaction item goes back exactly; another provider's compaction as its readable text.
  for (const part of message.parts) {
    const item = openAICompactionItemOf(part);
    if (item !== undefined)
      items.push({
        type: 'compaction',
        encrypted_content: item.encrypted_content,
        ...(typeof item.id === 'string' ? { id: item.id } : {}),
        ...(item.created_by === undefined ? {} : { created_by: item.created_by }),
      });
  }
  const text = message.parts
    .filter(
      (part): part is Extract<Part, { type: 'text' }> =>
        part.type === 'text' && openAICompactionItemOf(part) === undefined,
    )
    .map((part) => (nativeCompactionOf(part) !== undefined && part.text === '' ? NO_READABLE_COPY : part.text))
    .join('\n');
  // Anthropic's summary has no carrier here (no item is a compaction block): its readable copy opens the
  // conversation, which Anthropic's models take only from the user.
  const anthropic = message.parts.some((part) => nativeCompactionOf(part)?.vendor === 'anthropic');
  if (text !== '') items.push(textItem(anthropic ? 'user' : message.role, text));
  for (const part of message.parts)
    if (part.type === 'tool-call')
      items.push({
        type: 'function_call',
        callId: part.callId,
        name: part.name,
        arguments: JSON.stringify(part.input),
        status: 'completed',
      });
  return items;
}

function textItem(role: Message['role'], text: string): AgentInputItem {
  if (role === 'assistant') return { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
  if (role === 'system') return { role: 'system', content: text };
  return { role: 'user', content: text };
}
