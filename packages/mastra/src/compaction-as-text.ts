import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';

type Part = Exclude<LanguageModelV4Message['content'], string>[number];
type Options = Record<string, Record<string, unknown>> | undefined;

/**
 * The step's prompt with Anthropic's compaction block, where it has no signature, as its text in a user
 * message opening the conversation. Sent as a block it needs its beta (`compact-2026-09-04`), which
 * `@ai-sdk/anthropic` adds only for a block with a signature, and a Mastra processor cannot add: its
 * `processLLMRequest` returns the prompt alone. (A step that asks for threshold compaction has the
 * beta `compact-2026-01-12`, which admits the block: the processor skips this there.) The summary is still
 * the one Anthropic made; the prompt's other messages are the same objects.
 */
export function withUnsignedCompactionAsText(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  return prompt.flatMap((message): LanguageModelV4Message[] => {
    if (message.role !== 'assistant') return [message];
    const blocks = message.content.filter(isUnsignedCompaction);
    if (blocks.length === 0) return [message];
    const rest = message.content.filter((part) => !isUnsignedCompaction(part));
    return [
      { role: 'user', content: blocks.map((block) => ({ type: 'text' as const, text: block.text })) },
      ...(rest.length === 0 ? [] : [{ ...message, content: rest }]),
    ];
  });
}

function isUnsignedCompaction(part: Part): part is Extract<Part, { type: 'text' }> {
  const anthropic = (part.providerOptions as Options)?.['anthropic'];
  return part.type === 'text' && anthropic?.['type'] === 'compaction' && typeof anthropic['signature'] !== 'string';
}
