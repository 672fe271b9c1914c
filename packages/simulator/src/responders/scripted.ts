import type { AssistantTurn, ContentBlock, UsageOverride } from '../wire/wire.js';

/**
 * One scripted assistant turn: content blocks (text, tool_use, thinking, …) or
 * a text; a stop reason (default `tool_use` when a tool_use block is present,
 * else `end_turn`); usage figures to force.
 */
export interface ScriptedTurn {
  content: string | ContentBlock[];
  stopReason?: string;
  usage?: UsageOverride;
}

/** A scripted or replayed turn (or bare content) as the assistant turn the simulator sends. */
export function toTurn(turn: ScriptedTurn | ScriptedTurn['content']): AssistantTurn {
  const scripted: ScriptedTurn = typeof turn === 'string' || Array.isArray(turn) ? { content: turn } : turn;
  const content = typeof scripted.content === 'string' ? [{ type: 'text', text: scripted.content }] : scripted.content;
  const stopReason = scripted.stopReason ?? (content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
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
    /** The next queued turn, or undefined when both queues are empty. */
    next(): AssistantTurn | undefined {
      const turn = scripted.shift() ?? replayed.shift();
      return turn === undefined ? undefined : toTurn(turn);
    },
    get pending(): number {
      return scripted.length + replayed.length;
    },
  };
}
