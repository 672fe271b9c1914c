import type { SecretRange } from './secretlint-rules.js';

/** Runs of the characters a JWT is made of (maximal, so the regex never backtracks into one). */
const TOKEN_RUN = /[A-Za-z0-9_.-]{30,}/g;
const SEGMENT = /^[A-Za-z0-9_-]+$/;

/**
 * JSON Web Tokens (`eyJ….eyJ….…`). A regex with three bounded segments re-scans
 * the run from every `eyJ` in it (about 4 s per MB of `-eyJ` repeated); here each
 * run of token characters is found once and split on its dots, so the work is
 * linear in the text.
 */
export function jwtRanges(text: string): SecretRange[] {
  if (!text.includes('eyJ')) return [];
  const ranges: SecretRange[] = [];
  TOKEN_RUN.lastIndex = 0;
  for (let run = TOKEN_RUN.exec(text); run !== null; run = TOKEN_RUN.exec(text)) {
    const segments = run[0].split('.');
    let offset = run.index;
    for (let index = 0; index + 2 < segments.length; index++) {
      const header = headerStart(segments[index]!);
      const payload = segments[index + 1]!;
      const signature = segments[index + 2]!;
      if (
        header !== -1 &&
        segments[index]!.length - header >= 11 &&
        payload.startsWith('eyJ') &&
        payload.length >= 11 &&
        signature.length >= 8 &&
        SEGMENT.test(signature)
      ) {
        const start = offset + header;
        const end = offset + segments[index]!.length + 1 + payload.length + 1 + signature.length;
        ranges.push({ start, end, type: 'jwt' });
      }
      offset += segments[index]!.length + 1;
    }
  }
  return ranges;
}

/** Where a header starts in a segment: the first `eyJ` not glued to a letter or digit before it. */
function headerStart(segment: string): number {
  for (let at = segment.indexOf('eyJ'); at !== -1; at = segment.indexOf('eyJ', at + 3)) {
    if (at === 0 || !/[A-Za-z0-9]/.test(segment[at - 1]!)) return at;
  }
  return -1;
}
