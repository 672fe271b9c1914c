import {
  NO_READABLE_COPY,
  nativeCompactionOf,
  openAICompactionItemOf,
  type Message,
  type Part,
  type PromptOriginals,
} from '@ctxhost/core';
import type { AgentInputItem } from '@openai/agents';
import type { MirrorItem } from './from-agent-items.js';

/**
 * What the request waterfall made of the session, as Agents SDK input items:
 * items a hook left alone go out as the caller's objects; a shortened tool
 * output keeps its item with the new text; a summary becomes a message item.
 * The instructions item is left out (the SDK sends instructions apart).
 */
export function toAgentItems(
  messages: readonly Message[],
  originals: PromptOriginals<MirrorItem, unknown>,
): { instructions: string | undefined; input: AgentInputItem[] } {
  let instructions: string | undefined;
  const input: AgentInputItem[] = [];
  for (const message of messages) {
    const source = originals.message(message.id);
    if (source !== undefined && 'instructionsOnly' in source) {
      instructions = source.content;
      continue;
    }
    const unchanged =
      source !== undefined && message.parts.every((part) => originals.unchangedPart(part) !== undefined);
    if (unchanged) input.push(source);
    else input.push(...rebuild(message, source));
  }
  return { instructions, input };
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
