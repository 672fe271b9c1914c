/** What an overflow error says, whatever shape it arrived in. */
export type TokenLimitErrorKind = 'token_limit_exceeded' | 'context_length_exceeded' | 'bedrock_input_too_long' | 'non_empty_content' | 'request_too_large';

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

type Rule = { kind: TokenLimitErrorKind; provider: string; pattern: RegExp; read: (match: RegExpExecArray) => Omit<ParsedTokenLimitError, 'kind' | 'provider'> };

/** Text rules, most specific first. Each names its numbers; none matches a look-alike (see the negatives). */
const RULES: Rule[] = [
  { kind: 'token_limit_exceeded', provider: 'anthropic', pattern: /prompt is too long:?\s*([\d,]+)\s*tokens?\s*>\s*([\d,]+)\s*maximum/i, read: (m) => ({ currentTokens: num(m[1])!, maxTokens: num(m[2])! }) },
  { kind: 'token_limit_exceeded', provider: 'anthropic', pattern: /input length and `?max_tokens`? exceed context limit:?\s*([\d,]+)\s*\+\s*([\d,]+)\s*>\s*([\d,]+)/i, read: (m) => ({ currentTokens: num(m[1])! + num(m[2])!, maxTokens: num(m[3])! }) },
  { kind: 'context_length_exceeded', provider: 'openai', pattern: /maximum context length is ([\d,]+) tokens[\s\S]*?(?:resulted in|requested|you requested) ([\d,]+) tokens/i, read: (m) => ({ currentTokens: num(m[2])!, maxTokens: num(m[1])! }) },
  { kind: 'context_length_exceeded', provider: 'gemini', pattern: /input token count \(?([\d,]+)\)? exceeds the maximum number of tokens allowed \(?([\d,]+)\)?/i, read: (m) => ({ currentTokens: num(m[1])!, maxTokens: num(m[2])! }) },
  { kind: 'context_length_exceeded', provider: 'openai-compatible', pattern: /(?:context length|context window|prompt) (?:of|is|has)? ?([\d,]+) tokens? (?:exceeds|is over|is larger than|>) (?:the )?(?:model'?s? )?(?:maximum|limit|max)(?: context length)?(?: of)? ?([\d,]+)?/i, read: (m) => ({ currentTokens: num(m[1])!, ...(m[2] ? { maxTokens: num(m[2])! } : {}) }) },
  { kind: 'context_length_exceeded', provider: 'openai', pattern: /\bcontext_length_exceeded\b|exceeds the context window|Your input exceeds the context window/i, read: () => ({}) },
  { kind: 'bedrock_input_too_long', provider: 'bedrock', pattern: /Input is too long for requested model/i, read: () => ({}) },
  { kind: 'non_empty_content', provider: 'anthropic', pattern: /messages\.?\[?(\d+)\]?[^\n]*?non-empty content|messages\.(\d+)\.content\.\d+\.text: text content blocks must be non-empty/i, read: (m) => ({ messageIndex: num(m[1] ?? m[2])! }) },
  { kind: 'request_too_large', provider: 'anthropic', pattern: /request_too_large|Request exceeds the maximum allowed number of bytes|413 Request Entity Too Large/i, read: () => ({}) },
];

/** Look-alikes that are not overflows: rate limits counted in tokens, output caps, thinking budgets. */
const NEGATIVES = [/rate.?limit|per minute|tokens per min|\bTPM\b|quota/i, /max_tokens: \d+ > \d+, which is the maximum allowed/i, /budget_tokens|thinking/i];

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
    for (const text of texts(error)) {
      const parsed = fromText(text);
      if (parsed !== null) return withValidNumbers(parsed);
    }
  } catch {
    return null;
  }
  return null;
}

/**
 * Keeps a number only when it is one: token counts positive and finite, a message
 * index a non-negative integer. A NaN, a zero window or a 400-digit count (read as
 * Infinity) would turn the recovery's target size into nonsense; without them the
 * cascade falls back to the configured window.
 */
function withValidNumbers(parsed: ParsedTokenLimitError): ParsedTokenLimitError {
  const { currentTokens, maxTokens, messageIndex, ...rest } = parsed;
  const isCount = (value: number | undefined): value is number => value !== undefined && Number.isFinite(value) && value > 0;
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
  const numbers = { ...(typeof record['currentTokens'] === 'number' ? { currentTokens: record['currentTokens'] } : {}), ...(typeof record['maxTokens'] === 'number' ? { maxTokens: record['maxTokens'] } : {}) };
  const provider = typeof record['provider'] === 'string' ? { provider: record['provider'] } : {};
  switch (record['kind']) {
    case 'context_overflow':
    case 'output_budget_overflow':
      return { kind: /Input is too long/i.test(String(record['message'])) ? 'bedrock_input_too_long' : 'token_limit_exceeded', ...numbers, ...provider };
    case 'empty_content':
      return { kind: 'non_empty_content', ...(typeof record['messageIndex'] === 'number' ? { messageIndex: record['messageIndex'] } : {}), ...provider };
    case 'request_too_large':
      return { kind: 'request_too_large', ...provider };
  }
  return record['status'] === 413 || record['statusCode'] === 413 ? { kind: 'request_too_large' } : null;
}

function fromText(text: string): ParsedTokenLimitError | null {
  for (const rule of RULES) {
    const match = rule.pattern.exec(text);
    if (match === null) continue;
    if (rule.kind !== 'token_limit_exceeded' && rule.kind !== 'non_empty_content' && NEGATIVES.some((negative) => negative.test(text))) continue;
    if (rule.kind === 'context_length_exceeded' && NEGATIVES[0]!.test(text)) continue;
    return { kind: rule.kind, provider: rule.provider, ...rule.read(match) };
  }
  return null;
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
  return text.split('\n').filter((line) => line.startsWith('data:')).flatMap((line) => openedText(line.slice(5)));
}
