import type { CacheUsage } from '../features/prompt-cache.js';
import { countTextTokens } from '../wire/tokenizer.js';
import type { AssistantTurn, ContentBlock, WireUsage } from '../wire/wire.js';

/**
 * Usage as the API reports it: `input_tokens` excludes the cached tokens, so
 * input + cache creation + cache read = the prompt's size. A turn's own
 * `usage` figures, when scripted, replace the computed ones.
 */
export function buildUsage(promptTokens: number, cached: CacheUsage, turn: AssistantTurn): WireUsage {
  const usage: WireUsage = {
    input_tokens: promptTokens - cached.read - cached.creation5m - cached.creation1h,
    output_tokens: outputTokens(turn),
    cache_creation_input_tokens: cached.creation5m + cached.creation1h,
    cache_read_input_tokens: cached.read,
    cache_creation: { ephemeral_5m_input_tokens: cached.creation5m, ephemeral_1h_input_tokens: cached.creation1h },
  };
  return { ...usage, ...turn.usage };
}

/** Output tokens of a turn, by the simulator's tokenizer (at least 1). */
export function outputTokens(turn: AssistantTurn): number {
  return Math.max(
    1,
    turn.content.reduce((sum, block) => sum + countTextTokens(blockOutput(block)), 0),
  );
}

function blockOutput(block: ContentBlock): string {
  if (typeof block.text === 'string') return block.text;
  if (block.type === 'tool_use') return `${String(block['name'])}${JSON.stringify(block['input'] ?? {})}`;
  if (block.type === 'thinking') return String(block['thinking'] ?? '');
  // A compaction block's tokens are reported in usage.iterations, not in the top-level figures.
  if (block.type === 'compaction') return '';
  return JSON.stringify(block);
}
