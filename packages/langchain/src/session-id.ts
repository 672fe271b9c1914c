import { createHash } from 'node:crypto';
import type { BaseMessage } from '@langchain/core/messages';

/**
 * The session a model call belongs to: the `sessionId` option, else the
 * LangGraph thread (`configurable.thread_id`, set when the agent has a
 * checkpointer), else one derived from the system prompt and the first human
 * message, which stay the same across the steps and turns of a conversation.
 */
export function sessionIdOf(
  fixed: string | undefined,
  configurable: Record<string, unknown> | undefined,
  system: BaseMessage | undefined,
  messages: readonly BaseMessage[],
): string {
  if (fixed !== undefined) return fixed;
  const thread = configurable?.['thread_id'];
  if ((typeof thread === 'string' && thread !== '') || typeof thread === 'number') return `langchain-${String(thread)}`;
  const human = messages.find((message) => message.type === 'human');
  const opening = JSON.stringify([system?.content ?? null, human?.content ?? null]);
  return `langchain-${createHash('sha256').update(opening).digest('hex').slice(0, 24)}`;
}
