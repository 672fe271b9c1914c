import type Anthropic from '@anthropic-ai/sdk';
import { toAnthropic, type Message } from '@ctxhost/core';
import {
  nativeSummaryPrompt,
  NativeCompactionFailedError,
  ON_DEMAND_COMPACTION_BETA,
  type NativeCompactor,
} from '@ctxhost/native-compaction';
import { applyCacheBreakpoints } from '@ctxhost/prompt-caching';
import { toResponse } from './anthropic-model.js';

export interface AnthropicCompactorOptions {
  model: string;
  /** The summary's output cap (default 8,192). */
  maxTokens?: number;
}

/**
 * Anthropic's on-demand compaction (beta `compact-2026-09-04`) as a
 * `NativeCompactor`: the span goes out as `messages` with
 * `compaction: { type: 'summarize' }` (and, with a focus, `instructions` that
 * are ctxhost's complete summary prompt: they replace the server's own); the
 * reply's one `compaction` block comes back as a part, its summary readable.
 */
export function createAnthropicCompactor(client: Anthropic, options: AnthropicCompactorOptions): NativeCompactor {
  return {
    vendor: 'anthropic',
    model: options.model,
    async compact(span: readonly Message[], { system, focus, signal }) {
      // The span is the prefix the last requests sent: breakpoints on it let the pass read that prefix from the cache.
      const wire = toAnthropic(applyCacheBreakpoints(span, { ttl: '5m' }));
      const reply = await client.beta.messages
        .create(
          {
            model: options.model,
            max_tokens: options.maxTokens ?? 8_192,
            messages: wire.messages as Anthropic.Beta.Messages.BetaMessageParam[],
            ...(system === undefined ? {} : { system }),
            compaction: {
              type: 'summarize',
              ...(focus === undefined ? {} : { instructions: nativeSummaryPrompt(focus) }),
            },
            betas: [ON_DEMAND_COMPACTION_BETA],
          },
          signal === undefined ? {} : { signal },
        )
        .catch((error: unknown) => {
          throw new NativeCompactionFailedError('anthropic', `the compaction request failed: ${errorText(error)}`, {
            cause: error,
          });
        });
      const response = toResponse(reply as unknown as Anthropic.Message);
      const part = response.message.parts[0];
      if (reply.stop_reason !== 'compaction' || part === undefined || part.type !== 'text' || part.text === '')
        throw new NativeCompactionFailedError(
          'anthropic',
          `expected one compaction block with a summary and stop_reason "compaction", got ${JSON.stringify(reply.stop_reason)} with ${reply.content.map((block) => block.type).join(', ') || 'no content'}`,
        );
      return { part, usage: response.usage, model: reply.model };
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
