/** What an overflow error says, whatever shape it arrived in. */
export type TokenLimitErrorKind =
  | 'token_limit_exceeded'
  | 'context_length_exceeded'
  | 'bedrock_input_too_long'
  | 'non_empty_content'
  | 'request_too_large';

export interface ParsedTokenLimitError {
  kind: TokenLimitErrorKind;
  currentTokens?: number;
  maxTokens?: number;
  messageIndex?: number;
  provider?: string;
}

const MAX_DEPTH = 8;
const MAX_STRINGS = 200;
const num = (text: string | undefined) => (text === undefined ? undefined : Number(text.replace(/[,_\s]/g, '')));

type Rule = {
  kind: TokenLimitErrorKind;
  provider?: string;
  pattern: RegExp;
  read?: (match: RegExpExecArray) => Omit<ParsedTokenLimitError, 'kind' | 'provider'>;
};

const counts = (current: string | undefined, max: string | undefined) => ({
  ...(current === undefined ? {} : { currentTokens: num(current)! }),
  ...(max === undefined ? {} : { maxTokens: num(max)! }),
});
const N = '([\\d,]+)';
const rx = (source: string) => new RegExp(source, 'i');

/**
 * Text rules, most specific first; each names its provider and its numbers
 * (`token-limit-samples.ts` holds a real text for each, with where it was found).
 * Only the Anthropic rules with numbers are trusted over the negatives.
 */
const TRUSTED: Rule[] = [
  {
    kind: 'token_limit_exceeded',
    provider: 'anthropic',
    pattern: rx(`prompt is too long:?\\s*${N}\\s*tokens?\\s*>\\s*${N}\\s*maximum`),
    read: (m) => counts(m[1], m[2]),
  },
  {
    kind: 'token_limit_exceeded',
    provider: 'anthropic',
    pattern: rx(`input length and \`?max_tokens\`? exceed context limit:?\\s*${N}\\s*\\+\\s*${N}\\s*>\\s*${N}`),
    read: (m) => ({ currentTokens: num(m[1])! + num(m[2])!, maxTokens: num(m[3])! }),
  },
  {
    kind: 'non_empty_content',
    provider: 'anthropic',
    pattern:
      /messages\.?\[?(\d+)\]?[^\n]*?non-empty content|messages\.(\d+)\.content\.\d+\.text: text content blocks must be non-empty/i,
    read: (m) => ({ messageIndex: num(m[1] ?? m[2])! }),
  },
];

const RULES: Rule[] = [
  {
    kind: 'context_length_exceeded',
    provider: 'vllm',
    pattern: rx(`maximum context length is ${N} tokens and your request has ${N} input tokens \\(${N} >`),
    read: (m) => ({ currentTokens: num(m[2])! + num(m[3])!, maxTokens: num(m[1])! }),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'openrouter',
    pattern: rx(`endpoint's maximum context length is ${N} tokens[\\s\\S]*?requested (?:about )?${N} tokens`),
    read: (m) => counts(m[2], m[1]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'openai',
    pattern: rx(
      `maximum context length is ${N} tokens[\\s\\S]*?(?:resulted in|requested(?: about)?|request has) ${N}(?: input)? tokens`,
    ),
    read: (m) => counts(m[2], m[1]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'vllm',
    pattern: rx(`prompt \\(length ${N}\\) is longer than the maximum model length of ${N}`),
    read: (m) => counts(m[1], m[2]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'tgi',
    pattern: rx(
      `\`inputs\` tokens \\+ \`max_new_tokens\` must be <= ${N}\\. Given: ${N} \`inputs\` tokens and ${N} \`max_new_tokens\``,
    ),
    read: (m) => ({ currentTokens: num(m[2])! + num(m[3])!, maxTokens: num(m[1])! }),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'tgi',
    pattern: rx(`\`inputs\` must have less than ${N} tokens\\. Given: ${N}`),
    read: (m) => counts(m[2], m[1]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'gemini',
    pattern: rx(`input token count \\(?${N}?\\)? ?exceeds the maximum number of tokens allowed \\(?${N}\\)?`),
    read: (m) => counts(m[1] === '' ? undefined : m[1], m[2]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'xai',
    pattern: rx(`maximum prompt length is ${N} but the request contains ${N} tokens`),
    read: (m) => counts(m[2], m[1]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'mistral',
    pattern: rx(`Prompt contains ${N} tokens[\\s\\S]*?too large for model with ${N} maximum context length`),
    read: (m) => counts(m[1], m[2]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'github-copilot',
    pattern: rx(`prompt token count of ${N} exceeds the limit of ${N}`),
    read: (m) => counts(m[1], m[2]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'moonshot',
    pattern: rx(`exceeded model token limit:? ?${N}?(?: \\(requested: ${N}\\))?`),
    read: (m) => counts(m[2], m[1]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'lmstudio',
    pattern: rx(`keep the first ${N} tokens[\\s\\S]*?context length of only ${N} tokens`),
    read: (m) => counts(m[1], m[2]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'lmstudio',
    pattern: /greater than the context length|context length is only \d+ tokens/i,
  },
  {
    kind: 'context_length_exceeded',
    provider: 'llama.cpp',
    pattern: /exceeds the available context size|exceed_context_size_error/i,
  },
  {
    kind: 'context_length_exceeded',
    provider: 'ollama',
    pattern: /prompt too long; exceeded (?:max )?context length/i,
  },
  { kind: 'context_length_exceeded', provider: 'minimax', pattern: /context window exceeds limit/i },
  {
    kind: 'context_length_exceeded',
    pattern: rx(`prompt has ${N} tokens?, but the configured context size is ${N} tokens?`),
    read: (m) => counts(m[1], m[2]),
  },
  {
    kind: 'context_length_exceeded',
    pattern: rx(`input \\(${N} tokens\\) is longer than the model'?s context length \\(${N} tokens\\)`),
    read: (m) => counts(m[1], m[2]),
  },
  {
    kind: 'context_length_exceeded',
    pattern: rx(`exceeds (?:the )?maximum allowed input length of ${N} tokens?`),
    read: (m) => counts(undefined, m[1]),
  },
  {
    kind: 'context_length_exceeded',
    pattern: rx(
      `(?:context length|context window|prompt) (?:of|is|has)? ?${N} tokens? (?:exceeds|is over|is larger than|>) (?:the )?(?:model'?s? )?(?:maximum|limit|max)(?: context length)?(?: of)? ?${N}?`,
    ),
    read: (m) => counts(m[1], m[2]),
  },
  {
    kind: 'context_length_exceeded',
    provider: 'openai',
    pattern:
      /\bcontext[_ ]length[_ ]exceeded\b|exceeds the context window|exceeds (?:the )?(?:model'?s )?maximum context length|model_max_prompt_tokens_exceeded|model_context_window_exceeded/i,
  },
  { kind: 'bedrock_input_too_long', provider: 'bedrock', pattern: /Input is too long for requested model/i },
  {
    kind: 'token_limit_exceeded',
    provider: 'fireworks',
    pattern: rx(`prompt is too long:?\\s*${N},?\\s*model maximum context length:?\\s*${N}`),
    read: (m) => counts(m[1], m[2]),
  },
  { kind: 'token_limit_exceeded', pattern: /\bprompt is too long\b/i },
  {
    kind: 'context_length_exceeded',
    pattern:
      /\btoken limit exceeded\b|\btoo many tokens\b|tokens in request more than max tokens allowed|reduce the length of the messages/i,
  },
  {
    kind: 'request_too_large',
    provider: 'anthropic',
    pattern: /request_too_large|Request exceeds the maximum allowed number of bytes|413 Request Entity Too Large/i,
  },
];

/**
 * Look-alikes that are not overflows: rate limits and throttling counted in
 * tokens, an output cap above the model's maximum, thinking budgets.
 */
const NEGATIVES = [
  /rate.?limit|per minute|tokens per min|\bTPM\b|quota|too many requests|throttl|please wait before trying again|for this minute/i,
  /maximum allowed number of output tokens|supports at most [\d,]+ completion tokens|maxOutputTokens|max_output_tokens (?:must|is)/i,
  /budget_tokens|thinking/i,
];

/**
 * Finds a token-limit error in anything: an SDK error, a normalised
 * ProviderError, an error body (object or JSON text), an SSE stream, a bare
 * string, nested in `error`, `data`, `responseBody`, `cause`, … Returns null
 * for everything else. Never throws.
 */
export function parseTokenLimitError(error: unknown): ParsedTokenLimitError | null {
  try {
    const structured = fromStructure(error);
    if (structured !== null) return withValidNumbers(structured);
    // The first text that names an overflow decides; its numbers may sit in a later one: an AI SDK
    // APICallError's message says "prompt is too long" while its `responseBody` or `data` holds the counts.
    let found: ParsedTokenLimitError | null = null;
    for (const text of texts(error)) {
      const parsed = fromText(text);
      if (parsed === null) continue;
      if (hasCounts(parsed)) return withValidNumbers(found === null ? parsed : { ...found, ...numbersOf(parsed) });
      found ??= parsed;
    }
    return found === null ? null : withValidNumbers({ ...found, ...countFields(error) });
  } catch {
    return null;
  }
}

function hasCounts(parsed: ParsedTokenLimitError): boolean {
  return parsed.currentTokens !== undefined || parsed.maxTokens !== undefined;
}

function numbersOf(parsed: ParsedTokenLimitError): Pick<ParsedTokenLimitError, 'currentTokens' | 'maxTokens'> {
  return {
    ...(parsed.currentTokens === undefined ? {} : { currentTokens: parsed.currentTokens }),
    ...(parsed.maxTokens === undefined ? {} : { maxTokens: parsed.maxTokens }),
  };
}

/**
 * Keeps a number only when it is one: token counts positive and finite, a message
 * index a non-negative integer. A NaN, a zero window or a 400-digit count (read as
 * Infinity) would turn the recovery's target size into nonsense; without them the
 * cascade falls back to the configured window.
 */
function withValidNumbers(parsed: ParsedTokenLimitError): ParsedTokenLimitError {
  const { currentTokens, maxTokens, messageIndex, ...rest } = parsed;
  const isCount = (value: number | undefined): value is number =>
    value !== undefined && Number.isFinite(value) && value > 0;
  return {
    ...rest,
    ...(isCount(currentTokens) ? { currentTokens } : {}),
    ...(isCount(maxTokens) ? { maxTokens } : {}),
    ...(messageIndex !== undefined && Number.isSafeInteger(messageIndex) && messageIndex >= 0 ? { messageIndex } : {}),
  };
}

function fromStructure(error: unknown): ParsedTokenLimitError | null {
  if (typeof error !== 'object' || error === null) return null;
  const record = error as Record<string, unknown>;
  const numbers = {
    ...(typeof record['currentTokens'] === 'number' ? { currentTokens: record['currentTokens'] } : {}),
    ...(typeof record['maxTokens'] === 'number' ? { maxTokens: record['maxTokens'] } : {}),
  };
  const provider = typeof record['provider'] === 'string' ? { provider: record['provider'] } : {};
  switch (record['kind']) {
    case 'context_overflow':
    case 'output_budget_overflow':
      return {
        kind: /Input is too long/i.test(String(record['message'])) ? 'bedrock_input_too_long' : 'token_limit_exceeded',
        ...numbers,
        ...provider,
      };
    case 'empty_content':
      return {
        kind: 'non_empty_content',
        ...(typeof record['messageIndex'] === 'number' ? { messageIndex: record['messageIndex'] } : {}),
        ...provider,
      };
    case 'request_too_large':
      return { kind: 'request_too_large', ...provider };
  }
  return record['status'] === 413 || record['statusCode'] === 413 ? { kind: 'request_too_large' } : null;
}

function fromText(text: string): ParsedTokenLimitError | null {
  const trusted = match(TRUSTED, text);
  if (trusted !== null) return trusted;
  if (NEGATIVES.some((negative) => negative.test(text))) return null;
  return match(RULES, text);
}

function match(rules: readonly Rule[], text: string): ParsedTokenLimitError | null {
  for (const rule of rules) {
    const found = rule.pattern.exec(text);
    if (found !== null)
      return {
        kind: rule.kind,
        ...(rule.provider === undefined ? {} : { provider: rule.provider }),
        ...(rule.read?.(found) ?? {}),
      };
  }
  return null;
}

/** llama.cpp's error object carries the counts as fields (`n_prompt_tokens`, `n_ctx`) beside a message without numbers. */
function countFields(error: unknown): Pick<ParsedTokenLimitError, 'currentTokens' | 'maxTokens'> {
  for (const item of objects(error)) {
    const record = item as Record<string, unknown>;
    if (typeof record['n_ctx'] === 'number')
      return {
        maxTokens: record['n_ctx'],
        ...(typeof record['n_prompt_tokens'] === 'number' ? { currentTokens: record['n_prompt_tokens'] } : {}),
      };
  }
  return {};
}

/** Every object inside `value` (JSON bodies opened), breadth first; bounded and cycle-safe. */
function* objects(value: unknown): Generator<object> {
  const seen = new Set<unknown>();
  let queue: unknown[] = [value];
  for (let depth = 0; depth <= MAX_DEPTH && queue.length > 0; depth++) {
    const next: unknown[] = [];
    for (const item of queue) {
      if (typeof item === 'string') {
        next.push(...openedText(item));
        continue;
      }
      if (typeof item !== 'object' || item === null || seen.has(item)) continue;
      seen.add(item);
      yield item;
      if (item instanceof Error) next.push(item.message, (item as { cause?: unknown }).cause);
      for (const key of Object.keys(item).slice(0, 50)) next.push((item as Record<string, unknown>)[key]);
    }
    queue = next;
  }
}

/** Every string inside `value`, breadth first, JSON and SSE bodies opened; bounded and cycle-safe. */
function* texts(value: unknown): Generator<string> {
  const seen = new Set<unknown>();
  let queue: unknown[] = [value];
  let emitted = 0;
  for (let depth = 0; depth <= MAX_DEPTH && queue.length > 0; depth++) {
    const next: unknown[] = [];
    for (const item of queue) {
      if (typeof item === 'string') {
        if (++emitted > MAX_STRINGS) return;
        yield item;
        next.push(...openedText(item));
        continue;
      }
      if (typeof item !== 'object' || item === null || seen.has(item)) continue;
      seen.add(item);
      if (item instanceof Error) next.push(item.message, (item as { cause?: unknown }).cause);
      for (const key of Object.keys(item).slice(0, 50)) next.push((item as Record<string, unknown>)[key]);
    }
    queue = next;
  }
}

/** A JSON body, or the `data:` lines of an SSE stream, parsed. */
function openedText(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return [JSON.parse(trimmed)];
    } catch {
      return [];
    }
  }
  if (!/^data:/m.test(text)) return [];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .flatMap((line) => openedText(line.slice(5)));
}
