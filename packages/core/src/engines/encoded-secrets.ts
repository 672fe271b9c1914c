import type { SecretRange } from './secretlint-rules.js';

/** Runs without a space, each found once from its start (the lookbehind): the ones holding `%XX` are percent-decoded. */
const WORD_RUN = /(?<!\S)\S{6,65536}/g;
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;
/** Base64 runs long enough to hold a `NAME=value` line; longer than 64 KB is data (an image), not a config line. */
const BASE64_RUN = /[A-Za-z0-9+/]{16,65536}={0,2}/g;

/**
 * Secrets hidden by an encoding: a run is decoded, and when the decoded text
 * holds a secret (`isSecret` runs the other layers on it) the whole run is
 * redacted. Each run is decoded once, so the work stays linear.
 */
export function encodedSecretRanges(text: string, isSecret: (decoded: string) => boolean): SecretRange[] {
  const ranges: SecretRange[] = [];
  if (text.includes('%')) {
    WORD_RUN.lastIndex = 0;
    for (let run = WORD_RUN.exec(text); run !== null; run = WORD_RUN.exec(text)) {
      if (!PERCENT_ESCAPE.test(run[0])) continue;
      const decoded = percentDecoded(run[0]);
      if (decoded !== undefined && isSecret(decoded))
        ranges.push({ start: run.index, end: run.index + run[0].length, type: 'encoded-secret' });
    }
  }
  BASE64_RUN.lastIndex = 0;
  for (let run = BASE64_RUN.exec(text); run !== null; run = BASE64_RUN.exec(text)) {
    const decoded = base64Text(run[0]);
    if (decoded !== undefined && isSecret(decoded))
      ranges.push({ start: run.index, end: run.index + run[0].length, type: 'encoded-secret' });
  }
  return ranges;
}

function percentDecoded(run: string): string | undefined {
  try {
    const decoded = decodeURIComponent(run.replaceAll('+', ' '));
    return decoded === run ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/** The decoded text when a run is base64 of printable text (a `.env` line, a JSON credential), else undefined. */
function base64Text(run: string): string | undefined {
  if (run.length % 4 === 1) return undefined;
  const decoded = Buffer.from(run, 'base64').toString('utf8');
  let printable = 0;
  for (let index = 0; index < decoded.length; index++) {
    const code = decoded.charCodeAt(index);
    if ((code >= 32 && code < 127) || code === 10 || code === 13 || code === 9) printable++;
  }
  return decoded.length >= 8 && printable / decoded.length > 0.95 ? decoded : undefined;
}
