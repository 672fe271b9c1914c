import { createRequire } from 'node:module';
import type { RE2 as Re2Class } from 're2-wasm';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';

/*
 * Configured redaction patterns run on RE2 (Google's linear-time engine, the
 * `re2-wasm` build: WebAssembly, nothing native to compile). A backtracking
 * pattern such as `^(\w+\s?)*$` then costs time in proportion to the text, not
 * exponential in it; a pattern RE2 cannot run (a lookaround, a backreference:
 * features that need backtracking) is refused with RE2's reason. Loaded on
 * first use, so a config without patterns never pays for it.
 */

const require = createRequire(import.meta.url);
let engine: typeof Re2Class | undefined;

function re2(): typeof Re2Class {
  engine ??= (require('re2-wasm') as { RE2: typeof Re2Class }).RE2;
  return engine;
}

/** Why RE2 cannot run this pattern, or undefined when it can. */
export function linearPatternProblem(source: string): string | undefined {
  try {
    new (re2())(source, 'gu');
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return reason.replace(/^Invalid regular expression: \/.*\/gu: /s, '');
  }
}

/** A pattern compiled on RE2: each call returns the spans it matches (or of its `group`). Throws CTXHOST_CONFIG_INVALID when RE2 cannot run it. */
export function linearPattern(source: string): (text: string, group?: number) => { start: number; end: number }[] {
  const problem = linearPatternProblem(source);
  if (problem !== undefined)
    throw new CtxhostError(
      CORE_ERROR_CODES.configInvalid,
      `redaction.patterns: ${JSON.stringify(source)} cannot run in linear time (${problem}); rewrite it without lookarounds or backreferences`,
    );
  const regex = new (re2())(source, 'gu');
  return (text, group) => {
    const spans: { start: number; end: number }[] = [];
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      const whole = match[0] ?? '';
      if (whole.length === 0) {
        regex.lastIndex = match.index + 1;
        if (regex.lastIndex > text.length) break;
        continue;
      }
      const value = group === undefined ? whole : match[group];
      if (value === undefined || value.length === 0) continue;
      const start = match.index + (group === undefined ? 0 : Math.max(0, whole.lastIndexOf(value)));
      spans.push({ start, end: start + value.length });
    }
    return spans;
  };
}
