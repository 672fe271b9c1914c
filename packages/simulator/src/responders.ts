import { buildSummary, isSummaryRequest } from './summary-responder.js';
import { messageBlocks } from './tokenizer.js';
import type { AssistantTurn, ContentBlock, MessagesRequest } from './wire.js';

/** One scripted assistant turn: content blocks (or a text), a stop reason. */
export interface ScriptedTurn {
  content: string | ContentBlock[];
  stopReason?: string;
}

export function toTurn(turn: ScriptedTurn): AssistantTurn {
  const content = typeof turn.content === 'string' ? [{ type: 'text', text: turn.content }] : turn.content;
  const stop = turn.stopReason ?? (content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
  return { content, stop_reason: stop };
}

/**
 * What the simulator answers when nothing is scripted: a summary for a
 * summarization request, else a short deterministic text about the last user turn.
 */
export function defaultTurn(request: MessagesRequest): AssistantTurn {
  if (isSummaryRequest(request)) return { content: [{ type: 'text', text: buildSummary(request) }], stop_reason: 'end_turn' };
  const last = [...request.messages].reverse().find((message) => message.role === 'user');
  const texts = last === undefined ? [] : messageBlocks(last).flatMap((block) => (block.type === 'text' ? [block.text ?? ''] : block.type === 'tool_result' ? ['the tool results'] : []));
  const about = texts.join(' ').replace(/\s+/g, ' ').trim().slice(0, 80) || 'your message';
  return { content: [{ type: 'text', text: `Simulated reply about: ${about}` }], stop_reason: 'end_turn' };
}
