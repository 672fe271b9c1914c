import type OpenAI from 'openai';
import { fromResponsesOutput, toResponsesInput, type Message, type ResponsesItem } from '@ctxhost/core';
import { NativeCompactionFailedError, type NativeCompactor } from '@ctxhost/native-compaction';

export interface OpenAICompactorOptions {
  model: string;
}

/**
 * OpenAI's standalone `responses/compact` as a `NativeCompactor`: the span
 * goes out as Responses input items, and the one encrypted `compaction` item
 * of the answer comes back as a part (its readable copy made by the engine).
 * The user messages the endpoint echoes before the item are already in the
 * store and in the kept tail or the readable copy; ctxhost keeps the item.
 */
export function createOpenAICompactor(client: OpenAI, options: OpenAICompactorOptions): NativeCompactor {
  return {
    vendor: 'openai',
    model: options.model,
    async compact(span: readonly Message[], { system, signal }) {
      const head: ResponsesItem[] = system === undefined ? [] : [{ role: 'system', content: system }];
      const input = [...head, ...toResponsesInput(span)] as unknown as OpenAI.Responses.ResponseInputItem[];
      const compacted = await client.responses
        .compact({ model: options.model, input }, signal === undefined ? {} : { signal })
        .catch((error: unknown) => {
          throw new NativeCompactionFailedError(
            'openai',
            `responses/compact failed: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
        });
      const item = compacted.output.find((entry) => entry.type === 'compaction');
      if (item === undefined)
        throw new NativeCompactionFailedError(
          'openai',
          `responses/compact returned no compaction item (${compacted.output.map((entry) => entry.type).join(', ') || 'empty output'})`,
        );
      const part = fromResponsesOutput([item as unknown as ResponsesItem], `${compacted.id}`).parts[0]!;
      const usage = compacted.usage;
      const cached = usage.input_tokens_details?.cached_tokens ?? 0;
      return {
        part: part as Extract<typeof part, { type: 'text' }>,
        usage: {
          inputTokens: usage.input_tokens - cached,
          outputTokens: usage.output_tokens,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: cached,
        },
        model: options.model,
      };
    },
  };
}
