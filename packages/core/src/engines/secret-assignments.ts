import type { SecretRange } from './secretlint-rules.js';

/*
 * Secrets found by their structure rather than their format: a value given to
 * a secret-like name (`DB_PASS=…`, `"token": "…"`, `AccountKey=…;`, `sig=…&`),
 * a credential header (`Authorization: Basic …`, `x-api-key: …`), a password in
 * a URL (`redis://:pass@host`, a password holding `@` or `/`), `mysql -p…`, and a
 * high-entropy token a few words after a secret's name. Every scan is a global
 * regex with bounded repetitions or a walk with indexOf: linear in the text.
 */

/** Names whose value is a secret: matched against the whole key (`DB_PASSWORD`, `x-api-key`, `client_secret`). */
const SECRET_NAME =
  /(?:pass(?:wd|word|phrase)?|pwd|secret|token|api[-_]?key|apikey|access[-_]?key|private[-_]?key|account[-_]?key|shared[-_]?access[-_]?key|credentials?|auth(?:orization)?|cookie|session[-_]?id|signature|^sig$|^key$|[-_]key$|^pin$)/i;

/** Names that look secret but hold counts and settings (`max_tokens`, `token_count`, `PWD`, `auth_type`). */
const NOT_SECRET_NAME =
  /(?:tokens$|token_?(?:count|limit|type|usage|s_used)|^(?:old)?pwd$|(?:^|[-_])(?:max|min|input|output|total|cache\w*)[-_]?tokens?$|auth[-_]?(?:type|method|mode|url|provider|required|enabled)$|^authorization[-_]?url$|[-_]?(?:file|path|dir|name|id_env|env|length|size)$)/i;

/** Whether a key names a secret (`password`, `aws_secret_access_key`, `X-Api-Key`), not a count or a path. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name);
}

/** `name` then `:`, `=`, `=>` or a URL-encoded `=`, in any quoting (`"token": "`, `\"token\":\"`, `token%3D`). */
const ASSIGNMENT =
  /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,63})(\\?["']|%22|%27)?[ \t]{0,8}(:|=>|=|%3[Dd]|%3[Aa])[ \t]{0,8}(\\?["'`]|%22|%27)?/g;

/** Values that are not secrets: empty, placeholders, references to where the secret lives. */
const NOT_A_VALUE =
  /^(?:\[REDACTED:|\$\{|\$[A-Z_]|process\.env|<[^>]*>$|\*+$|x{3,}$|null$|true$|false$|none$|undefined$)/i;

const SCHEME = /^(?:Bearer|Basic|Token|Digest|Bot|token|bearer|basic)[ \t]{1,4}/;

/** The values given to secret-like names. */
export function assignmentRanges(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  ASSIGNMENT.lastIndex = 0;
  for (let match = ASSIGNMENT.exec(text); match !== null; match = ASSIGNMENT.exec(text)) {
    const name = match[1]!;
    if (!isSecretName(name)) continue;
    const start = match.index + match[0].length;
    const quote = match[4];
    const lineStart =
      match.index === 0 ||
      text[match.index - 1] === '\n' ||
      /^export\s$/.test(text.slice(match.index - 7, match.index));
    let value = quote === undefined ? unquotedValue(text, start, lineStart) : quotedValue(text, start, quote);
    if (value === undefined) continue;
    // Cut at a space, a value too short to be a secret (`DB_PASSWORD=F* GU$g8a`) is a secret holding spaces:
    // read it to the line's end rather than let all of it through.
    if (
      quote === undefined &&
      !lineStart &&
      value.end - value.start < 3 &&
      /^[ \t]+\S/.test(text.slice(value.end, value.end + 8))
    )
      value = unquotedValue(text, start, true) ?? value;
    let from = value.start;
    const scheme = SCHEME.exec(text.slice(from, from + 12));
    if (scheme !== null) from += scheme[0].length;
    const found = text.slice(from, value.end);
    if (found.length < 3 || NOT_A_VALUE.test(found)) continue;
    ranges.push({ start: from, end: value.end, type: 'password' });
    ASSIGNMENT.lastIndex = Math.max(ASSIGNMENT.lastIndex, value.end);
  }
  return ranges;
}

/** A quoted value: up to the closing quote (escaped ones skipped) or the line's end, at most 4,096 characters. */
function quotedValue(text: string, start: number, quote: string): { start: number; end: number } | undefined {
  const close = quote;
  const limit = Math.min(text.length, start + 4096);
  let end = start;
  while (end < limit && text[end] !== '\n') {
    if (text.startsWith(close, end) && (close.startsWith('\\') || text[end - 1] !== '\\')) break;
    end++;
  }
  return end > start ? { start, end } : undefined;
}

/** Unquoted: to the line's end for a `NAME=value` line (an env file), else to a space or a separator; at most 4,096. */
function unquotedValue(text: string, start: number, wholeLine: boolean): { start: number; end: number } | undefined {
  const limit = Math.min(text.length, start + 4096);
  let end = start;
  const stops = wholeLine ? '\n\r' : ' \t\n\r,;&"\'`<>(){}[]|';
  while (end < limit && !stops.includes(text[end]!)) end++;
  if (!wholeLine && SCHEME.test(text.slice(start, start + 12))) {
    end = start + (SCHEME.exec(text.slice(start, start + 12))?.[0].length ?? 0);
    while (end < limit && !stops.includes(text[end]!)) end++;
  }
  while (end > start && /[ \t]/.test(text[end - 1]!)) end--;
  return end > start ? { start, end } : undefined;
}

/** Passwords in URLs: `scheme://user:pass@host`, `redis://:pass@host`, a password holding `@` or `/` (up to the last `@`). */
export function urlPasswordRanges(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  // The run a `://` sits in (to the next space or quote) and its last `@`, found once per run: many `://` in
  // one run share them, so the scan stays linear.
  let runEnd = -1;
  let lastAt = -1;
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    const start = at + 3;
    if (start > runEnd) {
      runEnd = start;
      while (runEnd < text.length && !URL_STOPS.includes(text[runEnd]!)) runEnd++;
      lastAt = text.lastIndexOf('@', runEnd - 1);
    }
    if (lastAt <= start) continue;
    const colon = text.indexOf(':', start);
    if (colon === -1 || colon >= lastAt || text.slice(start, colon).includes('/')) continue;
    if (lastAt - colon - 1 < 1 || text.startsWith(REDACTED, colon + 1)) continue;
    ranges.push({ start: colon + 1, end: lastAt, type: 'connection-password' });
  }
  return ranges;
}

const URL_STOPS = ' \t\n\r"\'`<>';
const REDACTED = '[REDACTED:';

/** `mysql -pPASS` and its kin: the password glued to `-p`. */
const MYSQL_PASSWORD =
  /\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]{0,200}?[ \t]-p([^\s-][^\s]{0,255})/g;

export function commandPasswordRanges(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  MYSQL_PASSWORD.lastIndex = 0;
  for (let match = MYSQL_PASSWORD.exec(text); match !== null; match = MYSQL_PASSWORD.exec(text)) {
    const end = match.index + match[0].length;
    ranges.push({ start: end - match[1]!.length, end, type: 'command-password' });
  }
  return ranges;
}

/** A secret's name, then within a few words a long token: kept only when the token looks random (entropy). */
const NAMED_TOKEN =
  /\b(?:token|key|secret|password|passphrase|credential|api[-_ ]key)s?\b[^\n]{0,40}?(?<![A-Za-z0-9+/_=.-])([A-Za-z0-9+/_=.-]{16,512})/gi;

export function namedTokenRanges(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  NAMED_TOKEN.lastIndex = 0;
  for (let match = NAMED_TOKEN.exec(text); match !== null; match = NAMED_TOKEN.exec(text)) {
    const token = match[1]!;
    if (!looksRandom(token)) continue;
    const end = match.index + match[0].length;
    ranges.push({ start: end - token.length, end, type: 'high-entropy-token' });
  }
  return ranges;
}

/** Shannon entropy of at least 3.5 bits per character with digits and letters mixed: a key, not a word or a path. */
export function looksRandom(token: string): boolean {
  if (!/[0-9]/.test(token) || !/[A-Za-z]/.test(token)) return false;
  if (/^[a-z]+(?:[-_./][a-z0-9]+)+$/.test(token)) return false;
  const counts = new Map<string, number>();
  for (const character of token) counts.set(character, (counts.get(character) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const share = count / token.length;
    entropy -= share * Math.log2(share);
  }
  return entropy >= 3.5;
}
