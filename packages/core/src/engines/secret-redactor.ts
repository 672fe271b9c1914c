import type { RedactionConfig } from '../config/config-schema.js';

/**
 * Secret redaction for everything that leaves the store towards a summarizer
 * or lands in a summary: API keys and tokens of the common providers, bearer
 * tokens, private keys, credentials in connection strings and `password=` /
 * `password:` forms become a typed placeholder (`[REDACTED:github-token]`).
 * The original stays in the store only.
 *
 * Every built-in pattern is linear: no nested or overlapping unbounded
 * quantifiers, and private-key blocks are found with `indexOf`, not a lazy
 * `[\s\S]*?` that would go quadratic on many BEGIN lines without an END.
 */

/** A pattern: its type (the placeholder's label) and a global regex. `group`: redact only that capture group (the value after `password=`). */
export interface SecretPattern {
  type: string;
  regex: RegExp;
  group?: number;
}

/** What a redaction found: the text with placeholders, and how many secrets of each type. */
export interface RedactionResult {
  text: string;
  found: Record<string, number>;
}

export interface SecretRedactor {
  redact(text: string): RedactionResult;
  /** `redact(text).text`. */
  redactText(text: string): string;
}

export const REDACTION_PLACEHOLDER_PREFIX = '[REDACTED:';

export function redactionPlaceholder(type: string): string {
  return `${REDACTION_PLACEHOLDER_PREFIX}${type}]`;
}

// A token's tail: key characters, bounded so one start position costs a bounded amount of work.
const KEY = '[A-Za-z0-9_-]';
const VALUE_STOP = `[^\\s"'\`,;&<>()\\[\\]{}]`;

/** The built-in patterns, most specific first (an Anthropic key also starts with `sk-`). */
export const DEFAULT_SECRET_PATTERNS: readonly SecretPattern[] = [
  { type: 'anthropic-key', regex: new RegExp(`\\bsk-ant-${KEY}{20,400}`, 'g') },
  { type: 'openai-key', regex: new RegExp(`\\bsk-(?:proj-|svcacct-|admin-)?${KEY}{20,400}`, 'g') },
  { type: 'github-token', regex: /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{40,255})/g },
  { type: 'aws-access-key', regex: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  {
    type: 'aws-secret-key',
    regex:
      /\b(aws_?secret_?access_?key|secret_?access_?key|AWS_SECRET_ACCESS_KEY)(["']?\s{0,5}[:=]\s{0,5}["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 3,
  },
  { type: 'google-api-key', regex: /\bAIza[0-9A-Za-z_-]{35}/g },
  { type: 'slack-token', regex: /\bxox[baprs]-[A-Za-z0-9-]{10,250}/g },
  { type: 'stripe-key', regex: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,250}/g },
  { type: 'jwt', regex: /\beyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,2000}/g },
  { type: 'bearer-token', regex: /\b(Bearer\s{1,5})([A-Za-z0-9._~+/=-]{16,2000})/gi, group: 2 },
  {
    type: 'connection-password',
    regex: /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"[\]]{1,256}:)([^\s@/'"]{1,256})@/gi,
    group: 2,
  },
  {
    type: 'password',
    regex: new RegExp(
      `(?<![A-Za-z0-9])((?:password|passwd|pwd|passphrase|secret|client_?secret|api_?key|apikey|access_?token|auth_?token)["']?\\s{0,5}[:=]\\s{0,5}["']?)(${VALUE_STOP}{4,500})`,
      'gi',
    ),
    group: 2,
  },
];

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----/g;
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----/g;

/** Builds a redactor over the given patterns (default: the built-ins); private-key blocks are always redacted. */
export function createSecretRedactor(patterns: readonly SecretPattern[] = DEFAULT_SECRET_PATTERNS): SecretRedactor {
  for (const pattern of patterns) {
    if (!pattern.regex.global) throw new TypeError(`secret pattern ${pattern.type}: the regex must have the g flag`);
  }
  const redact = (text: string): RedactionResult => {
    const found: Record<string, number> = {};
    const count = (type: string) => {
      found[type] = (found[type] ?? 0) + 1;
    };
    let result = redactPrivateKeys(text, count);
    for (const pattern of patterns) result = applyPattern(result, pattern, count);
    return { text: result, found };
  };
  return { redact, redactText: (text) => redact(text).text };
}

function applyPattern(text: string, pattern: SecretPattern, count: (type: string) => void): string {
  const placeholder = redactionPlaceholder(pattern.type);
  pattern.regex.lastIndex = 0;
  return text.replace(pattern.regex, (match: string, ...groups: unknown[]) => {
    if (pattern.group === undefined) {
      count(pattern.type);
      return placeholder;
    }
    const captures = groups.slice(0, -2) as (string | undefined)[];
    const value = captures[pattern.group - 1];
    // Already a placeholder (redaction is idempotent) or nothing captured.
    if (value === undefined || value.startsWith(REDACTION_PLACEHOLDER_PREFIX) || value.startsWith('[')) return match;
    count(pattern.type);
    const before = captures.slice(0, pattern.group - 1).join('');
    return `${before}${placeholder}${match.slice(before.length + value.length)}`;
  });
}

/** Private-key blocks, BEGIN to END (or to the end of the text when the END line is missing: a cut key is still a secret). */
function redactPrivateKeys(text: string, count: (type: string) => void): string {
  if (!text.includes('PRIVATE KEY')) return text;
  let out = '';
  let from = 0;
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin !== null; begin = PEM_BEGIN.exec(text)) {
    PEM_END.lastIndex = begin.index + begin[0].length;
    const end = PEM_END.exec(text);
    const stop = end === null ? text.length : end.index + end[0].length;
    out += text.slice(from, begin.index) + redactionPlaceholder('private-key');
    count('private-key');
    from = stop;
    PEM_BEGIN.lastIndex = stop;
    if (end === null) break;
  }
  return out + text.slice(from);
}

/** Parses a configured pattern (`{ type, regex, flags }` from the config file) into a SecretPattern. */
export function secretPatternFromConfig(entry: {
  type: string;
  regex: string;
  group?: number | undefined;
}): SecretPattern {
  return {
    type: entry.type,
    regex: new RegExp(entry.regex, 'g'),
    ...(entry.group === undefined ? {} : { group: entry.group }),
  };
}

/** What `redaction` in the config file selects: the built-ins minus `disable`, plus the configured `patterns`; nothing at all when not enabled. */
export type { RedactionConfig };

export function secretRedactorFromConfig(redaction: RedactionConfig): SecretRedactor {
  if (!redaction.enabled) return { redact: (text) => ({ text, found: {} }), redactText: (text) => text };
  return createSecretRedactor([
    ...DEFAULT_SECRET_PATTERNS.filter((pattern) => !redaction.disable.includes(pattern.type)),
    ...redaction.patterns.map(secretPatternFromConfig),
  ]);
}
