export { createOpenAIModel, toChatParams, toResponse, toUsage, type OpenAIModelOptions } from './openai-model.js';
export {
  createOpenAIResponsesModel,
  toResponsesParams,
  toResponse as toResponsesResponse,
  toUsage as toResponsesUsage,
  type OpenAIResponsesModelOptions,
} from './openai-responses-model.js';
export { readableInPlaceOfOpaque, isInvalidEncryptedContent } from '@ctxhost/core';
export { toProviderError } from './to-provider-error.js';
export {
  createOpenAITokenCounter,
  openAITokenCounterFor,
  loadOpenAIEncoding,
  countMessage,
  countChatMessage,
  chatMessageText,
  OPENAI_ENCODINGS,
  TOKENS_PER_MESSAGE,
  TOKENS_PER_TOOL_CALL,
  type OpenAIEncoding,
  type OpenAIEncodingName,
} from './openai-token-counter.js';
export {
  withContextManagement,
  type OpenAIContextManagementOptions,
  type OpenAIWrapperCompactionEvent,
} from './with-context-management.js';
export { createOpenAISummarizer, type OpenAISummarizerOptions } from './summarizer.js';
export { createOpenAICompactor, type OpenAICompactorOptions } from './openai-compactor.js';
