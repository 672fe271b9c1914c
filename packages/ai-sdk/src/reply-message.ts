import { newMessageId, partId, type JsonValue, type Message, type Part, type Usage } from '@ctxhost/core';
import type { AiContent, AiUsage } from './ai-sdk-types.js';
import { CUSTOM_PART } from './from-ai-sdk-prompt.js';

/**
 * The model's reply as a ctxhost assistant message, so hooks see it (`message.updated`
 * with the usage: the monitor's toasts, the usage tracker) and the caller's copy of it in
 * the next prompt is matched rather than stored twice. Text, reasoning and tool calls;
 * sources, files and provider-executed results are the caller's business and not recorded.
 * Empty texts are left out, as the AI SDK leaves them out of the next prompt.
 */
export function replyMessage(content: readonly AiContent[]): Message {
  const id = newMessageId();
  const parts: Part[] = [];
  for (const item of content) {
    const partIdNext = partId(id, parts.length);
    if (item.type === 'text' && item.text !== '') parts.push({ id: partIdNext, type: 'text', text: item.text });
    else if (item.type === 'reasoning') parts.push({ id: partIdNext, type: 'reasoning', text: item.text });
    else if (item.type === 'custom')
      parts.push({ id: partIdNext, type: 'text', text: '', extra: { [CUSTOM_PART]: item.kind } });
    else if (item.type === 'tool-call' && item.providerExecuted !== true)
      parts.push({
        id: partIdNext,
        type: 'tool-call',
        callId: item.toolCallId,
        name: item.toolName,
        input: parseInput(item.input),
      });
  }
  return { id, role: 'assistant', parts };
}

/** The AI SDK's usage in ctxhost's terms: `inputTokens` without cache reads and writes, as Anthropic reports it. */
export function toUsage(usage: AiUsage): Usage {
  const cacheRead = usage.inputTokens.cacheRead ?? 0;
  const cacheWrite = usage.inputTokens.cacheWrite ?? 0;
  const noCache = usage.inputTokens.noCache ?? Math.max(0, (usage.inputTokens.total ?? 0) - cacheRead - cacheWrite);
  return {
    inputTokens: noCache,
    outputTokens: usage.outputTokens.total ?? 0,
    cacheReadInputTokens: cacheRead,
    cacheCreationInputTokens: cacheWrite,
  };
}

function parseInput(input: string): JsonValue {
  try {
    return JSON.parse(input === '' ? '{}' : input) as JsonValue;
  } catch {
    return input;
  }
}
