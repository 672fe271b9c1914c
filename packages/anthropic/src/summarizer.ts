import Anthropic from '@anthropic-ai/sdk';
import type { CtxhostConfig, Message, Summarizer } from '@ctxhost/core';

export interface AnthropicSummarizerOptions {
  model: string;
  /** The summary model's window: larger spans are chunked by the caller. */
  maxInputTokens?: number;
}

const TOOL_OUTPUT_CHARS = 4_000;

/** The summarizer contract over the SDK: the instructions as the system prompt, the span as a transcript. */
export function createAnthropicSummarizer(client: Anthropic, options: AnthropicSummarizerOptions): Summarizer {
  return {
    name: `anthropic:${options.model}`,
    ...(options.maxInputTokens === undefined ? {} : { maxInputTokens: options.maxInputTokens }),
    async summarize(request) {
      const previous = request.previousSummary === undefined ? '' : `Previous summary (update it):\n${request.previousSummary}\n\n`;
      const reply = await client.messages.create(
        {
          model: options.model,
          max_tokens: Math.max(256, Math.floor(request.maxOutputTokens)),
          system: request.instructions,
          messages: [{ role: 'user', content: `${previous}Conversation turns to summarize:\n\n${renderTranscript(request.messages)}` }],
        },
        request.signal === undefined ? {} : { signal: request.signal },
      );
      return reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('').trim();
    },
  };
}

/** A span as plain text: roles, text, tool calls with their input, tool outputs (long ones shortened in the middle). */
export function renderTranscript(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      const body = message.parts
        .map((part) => {
          if (part.type === 'text') return part.text;
          if (part.type === 'tool-call') return `[tool call ${part.name}] ${JSON.stringify(part.input)}`;
          if (part.type === 'tool-result') return `[tool result${part.isError ? ' (error)' : ''}] ${shorten(typeof part.output === 'string' ? part.output : part.output.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n'))}`;
          if (part.type === 'reasoning') return '';
          return `[${part.type}]`;
        })
        .filter((text) => text.length > 0)
        .join('\n');
      return `${message.role}: ${body}`;
    })
    .join('\n\n');
}

function shorten(text: string): string {
  if (text.length <= TOOL_OUTPUT_CHARS) return text;
  const half = TOOL_OUTPUT_CHARS / 2;
  return `${text.slice(0, half)}\n[… ${text.length - TOOL_OUTPUT_CHARS} characters …]\n${text.slice(-half)}`;
}

/**
 * The summarizer `auxiliary.compression` selects: its `model` (and `base_url`)
 * when set; otherwise the conversation's own client and model ("auto").
 */
export function summarizerFromConfig(config: CtxhostConfig, main: { client: Anthropic; model: string }, env: NodeJS.ProcessEnv = process.env): Summarizer {
  const auxiliary = config.auxiliary.compression;
  const client = auxiliary.baseUrl === undefined ? main.client : new Anthropic({ apiKey: env['ANTHROPIC_API_KEY'] ?? 'unused', baseURL: auxiliary.baseUrl });
  return createAnthropicSummarizer(client, { model: auxiliary.model ?? main.model });
}
