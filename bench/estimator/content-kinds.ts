import { estimateTextTokens, type Message } from '@ctxhost/core';

/** What appended text is: the estimator's error is reported, and its scale fitted, per kind. */
export type ContentKind = 'prose' | 'code' | 'json' | 'tool output';

export const CONTENT_KINDS: readonly ContentKind[] = ['prose', 'code', 'json', 'tool output'];

/** The appended messages' text split by kind: characters and the shipped estimator's tokens of each, plus structure counts. */
export interface KindProfile {
  characters: Record<ContentKind, number>;
  textTokens: Record<ContentKind, number>;
  messages: number;
  toolCalls: number;
  /** All the text, for counters that take a string. */
  text: string;
}

/**
 * Prose: user and assistant text and reasoning. JSON: tool-call names and inputs, and
 * tool results that parse as JSON. Code: tool results whose lines are mostly numbered
 * (`   12→…`, how Claude Code's Read shows a file). Tool output: every other tool result.
 */
export function kindProfile(messages: readonly Message[]): KindProfile {
  const profile: KindProfile = {
    characters: { prose: 0, code: 0, json: 0, 'tool output': 0 },
    textTokens: { prose: 0, code: 0, json: 0, 'tool output': 0 },
    messages: messages.length,
    toolCalls: 0,
    text: '',
  };
  const add = (kind: ContentKind, text: string): void => {
    profile.characters[kind] += text.length;
    profile.textTokens[kind] += estimateTextTokens(text);
    profile.text += `${text}\n`;
  };
  for (const message of messages)
    for (const part of message.parts) {
      if (part.type === 'text' || part.type === 'reasoning') add('prose', part.text);
      else if (part.type === 'tool-call') {
        profile.toolCalls++;
        add('json', `${part.name}${JSON.stringify(part.input ?? null)}`);
      } else if (part.type === 'tool-result') {
        const output =
          typeof part.output === 'string'
            ? part.output
            : part.output.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
        add(toolResultKind(output), output);
      }
    }
  return profile;
}

export function toolResultKind(output: string): ContentKind {
  const lines = output.split('\n');
  if (lines.filter((line) => /^\s*\d+→/.test(line)).length > lines.length / 2) return 'code';
  const trimmed = output.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      JSON.parse(trimmed);
      return 'json';
    } catch {
      return 'tool output';
    }
  }
  return 'tool output';
}

/** The kind with the most characters. */
export function dominantKind(profile: KindProfile): ContentKind {
  return CONTENT_KINDS.reduce((best, kind) => (profile.characters[kind] > profile.characters[best] ? kind : best));
}
