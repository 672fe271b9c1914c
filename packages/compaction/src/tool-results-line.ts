import type { Message, ToolResultPart } from '@ctxhost/core';

/** Longest preview of one result in a collapsed line. */
export const TOOL_RESULT_PREVIEW_CHARS = 80;

/**
 * The one-line stand-in for a tool-call group, e.g.
 * `[Tool results: get_weather: sunny, 18°C; search_docs: 3 matches]`.
 * Each result shows its first non-empty line, cut at `previewChars`.
 */
export function toolResultsLine(messages: readonly Message[], previewChars = TOOL_RESULT_PREVIEW_CHARS): string {
  const results = new Map<string, ToolResultPart>();
  for (const message of messages)
    for (const part of message.parts) if (part.type === 'tool-result') results.set(part.callId, part);
  const entries: string[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      const result = results.get(part.callId);
      results.delete(part.callId);
      entries.push(`${part.name}: ${result === undefined ? '(no result)' : preview(result, previewChars)}`);
    }
  }
  for (const result of results.values()) entries.push(`${result.name ?? 'tool'}: ${preview(result, previewChars)}`);
  return `[Tool results: ${entries.join('; ')}]`;
}

function preview(result: ToolResultPart, previewChars: number): string {
  const text =
    typeof result.output === 'string'
      ? result.output
      : result.output.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
  const firstLine =
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '(empty)';
  const cut = firstLine.length > previewChars ? `${firstLine.slice(0, previewChars - 1)}…` : firstLine;
  return result.isError === true ? `error: ${cut}` : cut;
}
