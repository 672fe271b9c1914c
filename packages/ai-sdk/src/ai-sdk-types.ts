import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';

/** The AI SDK's provider-level types this package works with (specification v4, `ai` 7). */
export type AiModel = LanguageModelV4;
export type AiCallOptions = LanguageModelV4CallOptions;
export type AiPrompt = LanguageModelV4Prompt;
export type AiMessage = LanguageModelV4Message;
export type AiPart = Exclude<AiMessage['content'], string>[number];
export type AiContent = LanguageModelV4Content;
export type AiGenerateResult = LanguageModelV4GenerateResult;
export type AiStreamResult = LanguageModelV4StreamResult;
export type AiStreamPart = LanguageModelV4StreamPart;
export type AiUsage = LanguageModelV4Usage;
export type AiProviderOptions = NonNullable<AiMessage['providerOptions']>;
