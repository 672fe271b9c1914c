import type { ParsedTokenLimitError } from './parse-token-limit-error.js';

/** Error texts from the seed and from real reports, with what they parse to (null: not an overflow). */
export const TOKEN_LIMIT_SAMPLES: [name: string, text: string, expected: Partial<ParsedTokenLimitError> | null][] = [
  ['Anthropic prompt too long', 'prompt is too long: 212345 tokens > 200000 maximum', { kind: 'token_limit_exceeded', currentTokens: 212345, maxTokens: 200000 }],
  ['Anthropic, 199999 maximum', 'prompt is too long: 200015 tokens > 199999 maximum', { kind: 'token_limit_exceeded', currentTokens: 200015, maxTokens: 199999 }],
  ['Anthropic input + max_tokens', 'input length and `max_tokens` exceed context limit: 187254 + 20000 > 200000, decrease input length or `max_tokens` and try again', { kind: 'token_limit_exceeded', currentTokens: 207254, maxTokens: 200000 }],
  ['Bedrock-wrapped Anthropic', 'ValidationException: The model returned the following errors: prompt is too long: 204800 tokens > 200000 maximum', { kind: 'token_limit_exceeded', currentTokens: 204800, maxTokens: 200000 }],
  ['Bedrock input too long', 'Input is too long for requested model.', { kind: 'bedrock_input_too_long' }],
  ['OpenAI chat', "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.", { kind: 'context_length_exceeded', currentTokens: 130512, maxTokens: 128000 }],
  ['OpenAI with completion', "This model's maximum context length is 8,192 tokens. However, you requested 9,000 tokens (8,000 in the messages, 1,000 in the completion).", { kind: 'context_length_exceeded', currentTokens: 9000, maxTokens: 8192 }],
  ['OpenAI Responses, code only', '{"error":{"code":"context_length_exceeded","message":"Your input exceeds the context window of this model."}}', { kind: 'context_length_exceeded' }],
  ['Gemini', 'INVALID_ARGUMENT: The input token count (1204321) exceeds the maximum number of tokens allowed (1048576).', { kind: 'context_length_exceeded', currentTokens: 1204321, maxTokens: 1048576 }],
  ['empty content with index', 'messages.12: all messages must have non-empty content except for the optional final assistant message', { kind: 'non_empty_content', messageIndex: 12 }],
  ['empty text block', 'messages.4.content.0.text: text content blocks must be non-empty', { kind: 'non_empty_content', messageIndex: 4 }],
  ['request too large', '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}', { kind: 'request_too_large' }],
  ['rate limit in tokens (negative)', 'This request would exceed the rate limit for your organization of 400,000 input tokens per minute.', null],
  ['max_tokens above the model maximum (negative)', 'max_tokens: 128000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5', null],
  ['thinking budget (negative)', '`max_tokens` must be greater than `thinking.budget_tokens`', null],
  ['tool output mentioning "is too long" (negative)', 'Error: the file name is too long for this file system', null],
  ['tool output mentioning context length (negative)', 'warning: context length of the regex is unbounded', null],
  ['overloaded (negative)', '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', null],
];
