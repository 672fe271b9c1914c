import type { Message } from '../model/message.js';

const CONSTRAINT =
  /\b(must|should|shouldn't|don't|do not|never|always|prefer|make sure|without|only use|avoid|keep)\b/i;
const CORRECTION = /\b(no,|not that|actually|instead|wrong|I said|I meant|stop|revert|undo|that's not)\b/i;
const DECISION =
  /\b(I decided|decided to|we'll use|I'll use|going with|I chose|chose to|switch(?:ed|ing)? to|instead of|the plan is|plan:|approach:)\b/i;

/** The person's own words in a message: its text parts, unless it is a summary or a notice ctxhost injected. */
export function personText(message: Message): string | undefined {
  if (message.meta?.summary !== undefined || message.meta?.notice !== undefined) return undefined;
  const text = message.parts
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n')
    .trim();
  return text.length > 0 ? text : undefined;
}

/** A text cut into sentences and lines (linear: one split on fixed-width separators). */
export function sentencesOf(text: string, maxChars: number): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim().replace(/^[-*>#\d.)\s]+/, ''))
    .filter((sentence) => sentence.length > 8 && sentence.length <= maxChars * 2)
    .map((sentence) => sentence.slice(0, maxChars));
}

export const isConstraint = (sentence: string): boolean => CONSTRAINT.test(sentence) || CORRECTION.test(sentence);
export const isDecision = (sentence: string): boolean => DECISION.test(sentence);
