import type OpenAI from 'openai';
import type { Summarizer } from '@ctxhost/core';
import { renderTranscript } from '@ctxhost/core';

export interface OpenAISummarizerOptions {
  model: string;
  /** The summary model's window: larger spans are chunked by the caller. */
  maxInputTokens?: number;
  /** Send `max_tokens` instead of `max_completion_tokens` (older OpenAI-compatible servers). */
  legacyMaxTokens?: boolean;
}

/**
 * The summarizer contract over Chat Completions, for any OpenAI-compatible
 * endpoint (OpenAI, OpenRouter, DeepSeek, a local vLLM or Ollama): the
 * instructions as the system message, the span as a transcript.
 */
export function createOpenAISummarizer(client: OpenAI, options: OpenAISummarizerOptions): Summarizer {
  return {
    name: `openai:${options.model}`,
    ...(options.maxInputTokens === undefined ? {} : { maxInputTokens: options.maxInputTokens }),
    async summarize(request) {
      const previous =
        request.previousSummary === undefined ? '' : `Previous summary (update it):\n${request.previousSummary}\n\n`;
      const maxTokens = Math.max(256, Math.floor(request.maxOutputTokens));
      const reply = await client.chat.completions.create(
        {
          model: options.model,
          ...(options.legacyMaxTokens === true ? { max_tokens: maxTokens } : { max_completion_tokens: maxTokens }),
          messages: [
            { role: 'system', content: request.instructions },
            {
              role: 'user',
              content: `${previous}Conversation turns to summarize:\n\n${renderTranscript(request.messages)}`,
            },
          ],
        },
        request.signal === undefined ? {} : { signal: request.signal },
      );
      return (reply.choices[0]?.message.content ?? '').trim();
    },
  };
}
