import type { Message } from './message.js';

const TOOL_OUTPUT_CHARS = 4_000;

/** A span as plain text: roles, text, tool calls with their input, tool outputs (long ones shortened in the middle). */
export function renderTranscript(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      const body = message.parts
        .map((part) => {
          if (part.type === 'text') return part.text;
          if (part.type === 'tool-call') return `[tool call ${part.name}] ${JSON.stringify(part.input)}`;
          if (part.type === 'tool-result')
            return `[tool result${part.isError ? ' (error)' : ''}] ${shorten(typeof part.output === 'string' ? part.output : part.output.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n'))}`;
          if (part.type === 'reasoning') return '';
          return `[${part.type}]`;
        })
        .filter((text) => text.length > 0)
        .join('\n');
      return `${message.role}: ${body}`;
    })
    .join('\n\n');
}

function shorten(text: string): string {
  if (text.length <= TOOL_OUTPUT_CHARS) return text;
  const half = TOOL_OUTPUT_CHARS / 2;
  return `${text.slice(0, half)}\n[… ${text.length - TOOL_OUTPUT_CHARS} characters …]\n${text.slice(-half)}`;
}
