import type { ParsedTokenLimitError } from './parse-token-limit-error.js';

/** One error text as a provider sends it, where it was found, and what it parses to (null: not an overflow). */
export type TokenLimitSample = [
  name: string,
  text: string,
  expected: Partial<ParsedTokenLimitError> | null,
  source: string,
];

const PI_AI = '@mariozechner/pi-ai 0.73.1 dist/utils/overflow.js (MIT), the example messages in its comment';
const OPENCODE = 'opencode-ai 1.18.33 (MIT), the overflow patterns in its binary (ProviderError context-overflow list)';
const API_FACTS = 'docs/api-facts.md (Anthropic docs and SDK)';

/**
 * Real overflow texts and their look-alikes. The texts come from the projects
 * named in `source` (their sources name the provider and quote its message) and
 * from the providers' public issue threads; numbers are as the threads show them.
 */
export const TOKEN_LIMIT_SAMPLES: TokenLimitSample[] = [
  [
    'Anthropic prompt too long',
    'prompt is too long: 212345 tokens > 200000 maximum',
    { kind: 'token_limit_exceeded', currentTokens: 212345, maxTokens: 200000, provider: 'anthropic' },
    API_FACTS,
  ],
  [
    'Anthropic, 199999 maximum',
    'prompt is too long: 200015 tokens > 199999 maximum',
    { kind: 'token_limit_exceeded', currentTokens: 200015, maxTokens: 199999 },
    API_FACTS,
  ],
  [
    'Anthropic input + max_tokens',
    'input length and `max_tokens` exceed context limit: 187254 + 20000 > 200000, decrease input length or `max_tokens` and try again',
    { kind: 'token_limit_exceeded', currentTokens: 207254, maxTokens: 200000 },
    API_FACTS,
  ],
  [
    'Bedrock-wrapped Anthropic',
    'ValidationException: The model returned the following errors: prompt is too long: 204800 tokens > 200000 maximum',
    { kind: 'token_limit_exceeded', currentTokens: 204800, maxTokens: 200000 },
    API_FACTS,
  ],
  [
    'Prompt is too long, no numbers (Claude Code, Vertex)',
    'Prompt is too long',
    { kind: 'token_limit_exceeded' },
    `${PI_AI}; Claude Code's own message`,
  ],
  [
    'Bedrock input too long',
    'Input is too long for requested model.',
    { kind: 'bedrock_input_too_long', provider: 'bedrock' },
    PI_AI,
  ],
  [
    'Fireworks (Kimi K2 models), count and maximum without "tokens"',
    'The prompt is too long: 267657, model maximum context length: 262143',
    { kind: 'token_limit_exceeded', currentTokens: 267657, maxTokens: 262143, provider: 'fireworks' },
    "Fireworks' API as quoted in public agent projects' tests (fireworks-ai client InvalidRequestError; LiteLLM's OpenAIException wrapping it)",
  ],
  [
    'OpenAI chat',
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
    { kind: 'context_length_exceeded', currentTokens: 130512, maxTokens: 128000 },
    'OpenAI API error (openai-python issues)',
  ],
  [
    'OpenAI with completion',
    "This model's maximum context length is 8,192 tokens. However, you requested 9,000 tokens (8,000 in the messages, 1,000 in the completion).",
    { kind: 'context_length_exceeded', currentTokens: 9000, maxTokens: 8192 },
    'OpenAI API error (openai-python issues)',
  ],
  [
    'OpenAI Responses, code only',
    '{"error":{"code":"context_length_exceeded","message":"Your input exceeds the context window of this model."}}',
    { kind: 'context_length_exceeded' },
    PI_AI,
  ],
  [
    'DeepSeek',
    "This model's maximum context length is 131072 tokens. However, you requested 140263 tokens (136167 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.",
    { kind: 'context_length_exceeded', currentTokens: 140263, maxTokens: 131072 },
    'DeepSeek API (OpenAI-compatible wording; Groq the same, per pi-ai)',
  ],
  [
    'OpenRouter',
    'This endpoint\'s maximum context length is 200000 tokens. However, you requested about 210520 tokens (202520 of text input, 8000 in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
    { kind: 'context_length_exceeded', currentTokens: 210520, maxTokens: 200000, provider: 'openrouter' },
    PI_AI,
  ],
  [
    'vLLM, input alone',
    "This model's maximum context length is 32768 tokens. However, your request has 40960 input tokens. Please reduce the length of the input messages.",
    { kind: 'context_length_exceeded', currentTokens: 40960, maxTokens: 32768 },
    'vLLM serving_engine.py (OpenAI server) error text',
  ],
  [
    'vLLM, input + max_tokens',
    "'max_tokens' or 'max_completion_tokens' is too large: 4096. This model's maximum context length is 32768 tokens and your request has 30000 input tokens (4096 > 32768 - 30000).",
    { kind: 'context_length_exceeded', currentTokens: 34096, maxTokens: 32768, provider: 'vllm' },
    'vLLM serving_engine.py (OpenAI server) error text',
  ],
  [
    'vLLM decoder prompt',
    'The decoder prompt (length 40000) is longer than the maximum model length of 32768. Make sure that `max_model_len` is no smaller than the number of text tokens.',
    { kind: 'context_length_exceeded', currentTokens: 40000, maxTokens: 32768, provider: 'vllm' },
    'vLLM engine processor error text',
  ],
  [
    'TGI inputs + max_new_tokens',
    'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 200 `max_new_tokens`',
    { kind: 'context_length_exceeded', currentTokens: 4200, maxTokens: 4096, provider: 'tgi' },
    'huggingface/text-generation-inference router validation error',
  ],
  [
    'TGI inputs alone',
    'Input validation error: `inputs` must have less than 4096 tokens. Given: 5120',
    { kind: 'context_length_exceeded', currentTokens: 5120, maxTokens: 4096, provider: 'tgi' },
    'huggingface/text-generation-inference router validation error',
  ],
  [
    'Gemini',
    'INVALID_ARGUMENT: The input token count (1204321) exceeds the maximum number of tokens allowed (1048576).',
    { kind: 'context_length_exceeded', currentTokens: 1204321, maxTokens: 1048576, provider: 'gemini' },
    PI_AI,
  ],
  [
    'Gemini, no brackets',
    'The input token count exceeds the maximum number of tokens allowed 1048576.',
    { kind: 'context_length_exceeded', maxTokens: 1048576, provider: 'gemini' },
    PI_AI,
  ],
  [
    'xAI Grok',
    "This model's maximum prompt length is 131072 but the request contains 537812 tokens.",
    { kind: 'context_length_exceeded', currentTokens: 537812, maxTokens: 131072, provider: 'xai' },
    PI_AI,
  ],
  [
    'Mistral',
    'Prompt contains 40135 tokens and 0 draft tokens, too large for model with 32768 maximum context length',
    { kind: 'context_length_exceeded', currentTokens: 40135, maxTokens: 32768, provider: 'mistral' },
    PI_AI,
  ],
  [
    'GitHub Copilot',
    '{"error":{"message":"prompt token count of 140052 exceeds the limit of 128000","code":"model_max_prompt_tokens_exceeded"}}',
    { kind: 'context_length_exceeded', currentTokens: 140052, maxTokens: 128000, provider: 'github-copilot' },
    PI_AI,
  ],
  [
    'Moonshot / Kimi',
    'Invalid request: Your request exceeded model token limit: 262144 (requested: 290418)',
    { kind: 'context_length_exceeded', currentTokens: 290418, maxTokens: 262144, provider: 'moonshot' },
    PI_AI,
  ],
  [
    'MiniMax',
    'invalid params, context window exceeds limit (2013)',
    { kind: 'context_length_exceeded', provider: 'minimax' },
    PI_AI,
  ],
  [
    'llama.cpp server',
    '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4200,"n_ctx":4096}}',
    { kind: 'context_length_exceeded', currentTokens: 4200, maxTokens: 4096, provider: 'llama.cpp' },
    PI_AI,
  ],
  [
    'Ollama',
    'prompt too long; exceeded max context length by 1024 tokens',
    { kind: 'context_length_exceeded', provider: 'ollama' },
    PI_AI,
  ],
  [
    'LM Studio, tokens to keep',
    'The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input',
    { kind: 'context_length_exceeded', provider: 'lmstudio' },
    PI_AI,
  ],
  [
    'LM Studio, loaded context',
    'Trying to keep the first 5210 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input',
    { kind: 'context_length_exceeded', currentTokens: 5210, maxTokens: 4096, provider: 'lmstudio' },
    OPENCODE,
  ],
  [
    'configured context size',
    'the prompt has 9000 tokens, but the configured context size is 8192 tokens',
    { kind: 'context_length_exceeded', currentTokens: 9000, maxTokens: 8192 },
    OPENCODE,
  ],
  [
    'input longer than context length',
    "input (70000 tokens) is longer than the model's context length (65536 tokens)",
    { kind: 'context_length_exceeded', currentTokens: 70000, maxTokens: 65536 },
    OPENCODE,
  ],
  [
    'maximum allowed input length',
    'Your prompt exceeds the maximum allowed input length of 128,000 tokens',
    { kind: 'context_length_exceeded', maxTokens: 128000 },
    OPENCODE,
  ],
  ['token limit exceeded', 'token limit exceeded', { kind: 'context_length_exceeded' }, `${PI_AI}; ${OPENCODE}`],
  [
    'too many tokens',
    'Too many tokens in the request for this model.',
    { kind: 'context_length_exceeded' },
    `${PI_AI}; ${OPENCODE}`,
  ],
  ['z.ai finish reason as text', 'model_context_window_exceeded', { kind: 'context_length_exceeded' }, PI_AI],
  [
    'empty content with index',
    'messages.12: all messages must have non-empty content except for the optional final assistant message',
    { kind: 'non_empty_content', messageIndex: 12 },
    API_FACTS,
  ],
  [
    'empty text block',
    'messages.4.content.0.text: text content blocks must be non-empty',
    { kind: 'non_empty_content', messageIndex: 4 },
    API_FACTS,
  ],
  [
    'request too large',
    '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}',
    { kind: 'request_too_large' },
    API_FACTS,
  ],
  [
    'rate limit in tokens (negative)',
    'This request would exceed the rate limit for your organization of 400,000 input tokens per minute.',
    null,
    API_FACTS,
  ],
  [
    'OpenAI TPM "request too large" (negative)',
    'Request too large for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Requested 45012. The input or output tokens must be reduced in order to run successfully.',
    null,
    'OpenAI API 429 (openai-python issues)',
  ],
  [
    'OpenAI TPM rate limit (negative)',
    'Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 28000, Requested 5000. Please try again in 6s.',
    null,
    'OpenAI API 429',
  ],
  [
    'Bedrock throttling "too many tokens" (negative)',
    'ThrottlingException: Too many tokens, please wait before trying again.',
    null,
    PI_AI,
  ],
  [
    'Bedrock throttling, formatted (negative)',
    'Throttling error: Too many tokens, please wait before trying again.',
    null,
    PI_AI,
  ],
  ['too many requests (negative)', '429 Too Many Requests: token limit exceeded for this minute', null, PI_AI],
  [
    'Anthropic max_tokens above the model maximum (negative)',
    'max_tokens: 128000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5',
    null,
    API_FACTS,
  ],
  [
    'OpenAI max_tokens above the model maximum (negative)',
    'max_tokens is too large: 200000. This model supports at most 16384 completion tokens, whereas you provided 200000.',
    null,
    'OpenAI API 400',
  ],
  [
    'Vertex maxOutputTokens range (negative)',
    'Unable to submit request because it has a maxOutputTokens value of 100000 but the supported range is from 1 (inclusive) to 65537 (exclusive). Update the value and try again.',
    null,
    'Vertex AI Gemini 400',
  ],
  ['thinking budget (negative)', '`max_tokens` must be greater than `thinking.budget_tokens`', null, API_FACTS],
  [
    'tool output mentioning "is too long" (negative)',
    'Error: the file name is too long for this file system',
    null,
    API_FACTS,
  ],
  [
    'tool output mentioning context length (negative)',
    'warning: context length of the regex is unbounded',
    null,
    API_FACTS,
  ],
  [
    'overloaded (negative)',
    '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    null,
    API_FACTS,
  ],
];
