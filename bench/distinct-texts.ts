import type { JsonValue, Message, Part, ToolResultPart } from '@ctxhost/core';

/** Characters between two marks in a text: a mark every this many characters, from the 16th on. */
const MARK_EVERY = 64;
const MARK_LENGTH = 6;

/**
 * The history with every string of its parts made distinct: each text, reasoning, tool input string and tool
 * output gets a 6-character mark (a running number in base 36) written over its characters every 64 characters,
 * from the 16th on, so the same corpus text repeated is another text throughout (not only at its start) and no
 * cache keyed on a text hits, as on a real conversation. Same lengths; a mark is not written over a surrogate pair
 * or a character `JSON.stringify` escapes, so sizes stay the corpus's. Deterministic: the same history gives the
 * same texts.
 */
export function withDistinctTexts(history: readonly Message[]): Message[] {
  let marks = 0;
  const mark = (text: string): string => {
    if (text.length < 16 + MARK_LENGTH) return text;
    const mark = (marks++).toString(36).padStart(MARK_LENGTH, '0');
    // Joined, not concatenated: one flat string, as a text parsed from JSON is (a rope would read slower).
    const pieces: string[] = [];
    let from = 0;
    for (let at = 16; at + MARK_LENGTH <= text.length; at += MARK_EVERY) {
      if (!plain(text, at)) continue;
      pieces.push(text.slice(from, at), mark);
      from = at + MARK_LENGTH;
    }
    pieces.push(text.slice(from));
    return pieces.join('');
  };
  return history.map((message) => ({ ...message, parts: message.parts.map((part) => markPart(part, mark)) }));
}

/** The characters at `at` are plain ASCII (no surrogate half, nothing JSON escapes), so a mark keeps the size. */
function plain(text: string, at: number): boolean {
  for (let index = at; index < at + MARK_LENGTH; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}

function markPart(part: Part, mark: (text: string) => string): Part {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return { ...part, text: mark(part.text) };
    case 'tool-call':
      return { ...part, input: markJson(part.input, mark) };
    case 'tool-result':
      return { ...part, output: markOutput(part.output, mark) };
    default:
      return part;
  }
}

function markOutput(output: ToolResultPart['output'], mark: (text: string) => string): ToolResultPart['output'] {
  if (typeof output === 'string') return mark(output);
  return output.map((content) => (content.type === 'text' ? { ...content, text: mark(content.text) } : content));
}

function markJson(value: JsonValue, mark: (text: string) => string): JsonValue {
  if (typeof value === 'string') return mark(value);
  if (Array.isArray(value)) return value.map((item) => markJson(item, mark));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, markJson(item, mark)]));
}
