import type { Message, Part, ToolResultContent } from './message.js';

/**
 * The characters a message puts into a prompt: text, reasoning text, tool names
 * and JSON inputs, tool-result text. Media count as zero characters (their
 * token cost is fixed, see `estimateTokens`); redacted reasoning counts its data.
 */
export function messageChars(message: Message): number {
  let chars = 0;
  for (const part of message.parts) chars += partChars(part);
  return chars;
}

export function partChars(part: Part): number {
  switch (part.type) {
    case 'text':
      return part.text.length;
    case 'reasoning':
      return part.text.length + (part.data?.length ?? 0);
    case 'tool-call':
      return part.name.length + JSON.stringify(part.input ?? null).length;
    case 'tool-result':
      return typeof part.output === 'string' ? part.output.length : sumContentChars(part.output);
    case 'image':
    case 'file':
      return part.source.kind === 'text' ? part.source.text.length : 0;
  }
}

function sumContentChars(blocks: readonly ToolResultContent[]): number {
  let chars = 0;
  for (const block of blocks) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.source.kind === 'text') chars += block.source.text.length;
  }
  return chars;
}
