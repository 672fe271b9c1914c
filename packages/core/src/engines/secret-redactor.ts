import type { RedactionConfig } from '../config/config-schema.js';
import { encodedSecretRanges } from './encoded-secrets.js';
import { jwtRanges } from './jwt-ranges.js';
import { linearPattern } from '../config/linear-pattern.js';
import { assignmentRanges, commandPasswordRanges, namedTokenRanges, urlPasswordRanges } from './secret-assignments.js';
import { secretlintRanges, type SecretRange } from './secretlint-rules.js';

/**
 * Secret redaction for everything that leaves the store towards a summarizer
 * or lands in a summary. Three layers, merged: secretlint's recommended preset
 * (the provider formats, kept by its maintainers), the patterns below for what
 * it does not cover, and structure (a value given to a secret-like name, a
 * credential header, a password in a URL, a high-entropy token next to a
 * secret's name); then the same again inside percent-encoded and base64 runs.
 * A secret becomes a typed placeholder (`[REDACTED:github-token]`); the original
 * stays in the store only.
 *
 * Every layer is linear in the text: bounded quantifiers with nothing
 * ambiguous after them, scans with indexOf, and configured patterns run on a
 * linear-time engine (RE2).
 */

/** A pattern: its type (the placeholder's label) and a global regex. `group`: redact only that capture group. */
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

const KEY = '[A-Za-z0-9_-]';

/** Formats secretlint's preset leaves out or reads narrowly, most specific first (an Anthropic key also starts with `sk-`). */
export const DEFAULT_SECRET_PATTERNS: readonly SecretPattern[] = [
  { type: 'anthropic-key', regex: new RegExp(`(?<![A-Za-z0-9])sk-ant-${KEY}{20,400}`, 'g') },
  { type: 'openai-key', regex: new RegExp(`(?<![A-Za-z0-9])sk-(?:proj-|svcacct-|admin-)?${KEY}{20,400}`, 'g') },
  { type: 'github-token', regex: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{40,255})/g },
  { type: 'gitlab-token', regex: /(?<![A-Za-z0-9])gl(?:pat|dt|ptt|rt|cbt|soat|ffct)-[A-Za-z0-9_-]{20,64}/g },
  { type: 'huggingface-token', regex: /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,64}/g },
  { type: 'groq-key', regex: /(?<![A-Za-z0-9])gsk_[A-Za-z0-9]{40,64}/g },
  { type: 'sendgrid-key', regex: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}/g },
  { type: 'google-oauth-token', regex: /(?<![A-Za-z0-9])ya29\.[A-Za-z0-9_-]{20,2048}/g },
  { type: 'slack-webhook', regex: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,200}/g },
  { type: 'npm-token', regex: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}\b/g },
  { type: 'aws-access-key', regex: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { type: 'google-api-key', regex: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/g },
  { type: 'slack-token', regex: /(?<![A-Za-z0-9])xox[baprse]-[A-Za-z0-9-]{10,250}/g },
  { type: 'stripe-key', regex: /(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,250}/g },
  { type: 'bearer-token', regex: /(?<![A-Za-z0-9])(Bearer[ \t]{1,5})([A-Za-z0-9._~+/=-]{16,2000})/gi, group: 2 },
  { type: 'azure-sas-signature', regex: /[?&]sig=([A-Za-z0-9%+/=]{16,512})/g, group: 1 },
];

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----/g;
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----/g;

export interface SecretRedactorOptions {
  /** Layer names and pattern types to leave out (`password`, a secretlint rule such as `github`). */
  disable?: readonly string[];
}

/** Builds a redactor: the given patterns (default: the built-ins) on top of the preset and the structural layer; private keys always. */
export function createSecretRedactor(
  patterns: readonly SecretPattern[] = DEFAULT_SECRET_PATTERNS,
  options: SecretRedactorOptions = {},
): SecretRedactor {
  const compiled = patterns.map(compilePattern);
  const disabled = new Set(options.disable ?? []);
  const rangesOf = (text: string): SecretRange[] => [
    ...compiled.flatMap((pattern) => pattern(text)),
    ...(disabled.has('jwt') ? [] : jwtRanges(text)),
    ...secretlintRanges(text, disabled),
    ...(disabled.has('password') ? [] : assignmentRanges(text)),
    ...(disabled.has('connection-password') ? [] : urlPasswordRanges(text)),
    ...commandPasswordRanges(text),
    ...namedTokenRanges(text),
  ];
  const redactLayer = (text: string, depth: number): RedactionResult => {
    const found: Record<string, number> = {};
    const count = (type: string): void => {
      found[type] = (found[type] ?? 0) + 1;
    };
    let result = redactPrivateKeys(text, count);
    result = replaceRanges(result, rangesOf(result), count);
    if (depth === 0) {
      const inner = (decoded: string): boolean => Object.keys(redactLayer(decoded, depth + 1).found).length > 0;
      result = replaceRanges(result, encodedSecretRanges(result, inner), count);
    }
    return { text: result, found };
  };
  const redact = (text: string): RedactionResult => redactLayer(text, 0);
  return { redact, redactText: (text) => redact(text).text };
}

/** A pattern as a function from text to ranges, its capture group located with the `d` flag. */
function compilePattern(pattern: SecretPattern): (text: string) => SecretRange[] {
  if (!pattern.regex.global) throw new TypeError(`secret pattern ${pattern.type}: the regex must have the g flag`);
  const regex = pattern.regex.hasIndices ? pattern.regex : new RegExp(pattern.regex.source, `${pattern.regex.flags}d`);
  return (text) => {
    const ranges: SecretRange[] = [];
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      if (match[0].length === 0) regex.lastIndex++;
      const span =
        pattern.group === undefined ? [match.index, match.index + match[0].length] : match.indices?.[pattern.group];
      if (span === undefined) continue;
      const [start, end] = span as [number, number];
      ranges.push({ start, end, type: pattern.type });
    }
    return ranges;
  };
}

/**
 * Replaces the ranges (merged where they overlap; the earliest, then the first
 * listed, names the type), leaving placeholders alone so redaction is idempotent.
 * A secret that ends a line and goes on over the next line alone (a key wrapped
 * at a fixed width) takes that line too.
 */
function replaceRanges(text: string, ranges: SecretRange[], count: (type: string) => void): string {
  if (ranges.length === 0) return text;
  const ordered = ranges
    .map((range, order) => ({ ...range, order }))
    .filter((range) => range.end > range.start)
    .sort((left, right) => left.start - right.start || left.order - right.order);
  let out = '';
  let from = 0;
  for (let index = 0; index < ordered.length; index++) {
    const range = ordered[index]!;
    if (range.start < from) continue;
    let end = range.end;
    while (index + 1 < ordered.length && ordered[index + 1]!.start < end) end = Math.max(end, ordered[++index]!.end);
    if (isInsidePlaceholder(text, range.start, end)) continue;
    end = wrappedEnd(text, end);
    out += text.slice(from, range.start) + redactionPlaceholder(range.type);
    count(range.type);
    from = end;
  }
  return out + text.slice(from);
}

/** Whether a range touches a placeholder already there (looked for in a bounded window, so the check is constant work). */
function isInsidePlaceholder(text: string, start: number, end: number): boolean {
  const from = Math.max(0, start - 64);
  const window = text.slice(from, Math.min(text.length, end + 1));
  for (let open = window.indexOf(REDACTION_PLACEHOLDER_PREFIX); open !== -1;) {
    const close = window.indexOf(']', open);
    if (close === -1) return false;
    if (from + open < end && from + close >= start) return true;
    open = window.indexOf(REDACTION_PLACEHOLDER_PREFIX, close);
  }
  return false;
}

const WRAPPED_LINE = /^[A-Za-z0-9+/=_-]{8,256}[ \t]*(?:\r?\n|$)/;

/** The end of a secret followed by continuation lines (only key characters), at most 64 of them. */
function wrappedEnd(text: string, end: number): number {
  let at = end;
  for (let lines = 0; lines < 64; lines++) {
    const newline = text.startsWith('\r\n', at) ? 2 : text[at] === '\n' ? 1 : 0;
    if (newline === 0) return at;
    const next = WRAPPED_LINE.exec(text.slice(at + newline, at + newline + 260));
    if (next === null || !/[0-9]/.test(next[0]) || !/[A-Za-z]/.test(next[0])) return at;
    at += newline + next[0].trimEnd().length;
  }
  return at;
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

/**
 * A configured pattern (`{ type, regex, group }` from the config file), run on
 * RE2 (a linear-time engine): a pattern RE2 cannot run (a lookaround, a
 * backreference) throws CTXHOST_CONFIG_INVALID with the reason.
 */
export function secretPatternFromConfig(entry: {
  type: string;
  regex: string;
  group?: number | undefined;
}): (text: string) => SecretRange[] {
  const run = linearPattern(entry.regex);
  return (text) => run(text, entry.group).map((span) => ({ ...span, type: entry.type }));
}

/** What `redaction` in the config file selects: the built-ins minus `disable`, plus the configured `patterns`; nothing at all when not enabled. */
export type { RedactionConfig };

export function secretRedactorFromConfig(redaction: RedactionConfig): SecretRedactor {
  if (!redaction.enabled) return { redact: (text) => ({ text, found: {} }), redactText: (text) => text };
  const configured = redaction.patterns.map(secretPatternFromConfig);
  const builtIn = DEFAULT_SECRET_PATTERNS.filter((pattern) => !redaction.disable.includes(pattern.type));
  const base = createSecretRedactor(builtIn, { disable: redaction.disable });
  if (configured.length === 0) return base;
  const redact = (text: string): RedactionResult => {
    const first = base.redact(text);
    const found = { ...first.found };
    const ranges = configured.flatMap((pattern) => pattern(first.text));
    const result = replaceRanges(first.text, ranges, (type) => (found[type] = (found[type] ?? 0) + 1));
    return { text: result, found };
  };
  return { redact, redactText: (text) => redact(text).text };
}
