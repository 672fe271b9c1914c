import type { AssistantTurn, ContentBlock, MessagesRequest, UsageOverride } from '../wire/wire.js';

/**
 * One scripted assistant turn: content blocks (text, tool_use, thinking, …) or
 * a text; a stop reason (default `tool_use` when a tool_use block is present,
 * else `end_turn`); usage figures to force.
 */
export interface ScriptedTurn {
  content: string | ContentBlock[];
  stopReason?: string;
  usage?: UsageOverride;
  /** Answers only a request this accepts (e.g. not the agent's summary call); later requests wait for it in order. */
  when?: (request: MessagesRequest) => boolean;
}

/** A scripted or replayed turn (or bare content) as the assistant turn the simulator sends. */
export function toTurn(turn: ScriptedTurn | ScriptedTurn['content']): AssistantTurn {
  const scripted: ScriptedTurn = typeof turn === 'string' || Array.isArray(turn) ? { content: turn } : turn;
  const content = typeof scripted.content === 'string' ? [{ type: 'text', text: scripted.content }] : scripted.content;
  const stopReason =
    scripted.stopReason ?? (content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
  return { content, stop_reason: stopReason, ...(scripted.usage === undefined ? {} : { usage: scripted.usage }) };
}

/** The queue of turns: scripted ones first, then the replay, in order. */
export function createTurnQueue(replay: readonly (ScriptedTurn | ScriptedTurn['content'])[] = []) {
  const scripted: (ScriptedTurn | ScriptedTurn['content'])[] = [];
  const replayed = [...replay];
  return {
    script(...turns: (ScriptedTurn | ScriptedTurn['content'])[]): void {
      scripted.push(...turns);
    },
    /** The first scripted turn that accepts `request` (else the next replayed one), or undefined when none does. */
    next(request?: MessagesRequest): AssistantTurn | undefined {
      const index = scripted.findIndex((turn) => !isConditional(turn) || request === undefined || turn.when(request));
      const turn = index >= 0 ? scripted.splice(index, 1)[0] : replayed.shift();
      return turn === undefined ? undefined : toTurn(turn);
    },
    get pending(): number {
      return scripted.length + replayed.length;
    },
  };
}

function isConditional(
  turn: ScriptedTurn | ScriptedTurn['content'],
): turn is ScriptedTurn & { when: (request: MessagesRequest) => boolean } {
  return typeof turn === 'object' && !Array.isArray(turn) && typeof turn.when === 'function';
}
