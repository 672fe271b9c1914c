import { messageBlocks } from '../wire/tokenizer.js';
import type { AssistantTurn, MessagesRequest } from '../wire/wire.js';
import { isSummaryRequest, summaryTurn } from './summary.js';
import { toolUseTurn } from './tool-use.js';

/**
 * What the simulator answers when nothing is scripted: a structured summary
 * within `max_tokens` for a summarization request; a call to the first tool when `toolUse` is on
 * and one fits (see tool-use.ts); else `Simulated reply about: <last user text>`.
 */
export function defaultTurn(request: MessagesRequest, options: { toolUse?: boolean } = {}): AssistantTurn {
  if (isSummaryRequest(request)) return summaryTurn(request);
  const about = lastUserText(request) || 'your message';
  const toolTurn = options.toolUse === true ? toolUseTurn(request, about) : undefined;
  return toolTurn ?? { content: [{ type: 'text', text: `Simulated reply about: ${about}` }], stop_reason: 'end_turn' };
}

function lastUserText(request: MessagesRequest): string {
  const last = [...request.messages].reverse().find((message) => message.role === 'user');
  const texts =
    last === undefined
      ? []
      : messageBlocks(last).flatMap((block) =>
          block.type === 'text' ? [block.text ?? ''] : block.type === 'tool_result' ? ['the tool results'] : [],
        );
  return texts.join(' ').replace(/\s+/g, ' ').trim().slice(0, 80);
}
