import { ORIGINAL_TOOL_NAME, type Message, type ToolResultPart } from '@ctxhost/core';
import { COMPRESSOR } from './constants.js';

/**
 * Phase 1: tool results longer than 200 characters before `protectFrom` are
 * replaced by a short notice in the projection. The originals stay in the
 * store (`session.original(partId)`); the notice names the part, so the model can
 * read it back with `ctxhost_original`. Returns the messages and how many were cleared.
 */
export function pruneToolOutputs(
  messages: readonly Message[],
  protectFrom: number,
): { messages: Message[]; pruned: number } {
  let pruned = 0;
  const result = messages.map((message, index) => {
    if (index >= protectFrom) return message;
    let changed = false;
    const parts = message.parts.map((part) => {
      if (part.type !== 'tool-result' || part.compacted !== undefined) return part;
      const chars = outputChars(part);
      if (chars <= COMPRESSOR.pruneMinChars) return part;
      changed = true;
      pruned++;
      return {
        ...part,
        output: `${COMPRESSOR.prunedToolOutput} (${ORIGINAL_TOOL_NAME} ${part.id})`,
        compacted: { by: COMPRESSOR.name, reason: 'old tool output cleared (phase 1)', originalChars: chars },
      } satisfies ToolResultPart;
    });
    return changed ? { ...message, parts } : message;
  });
  return { messages: result, pruned };
}

export function outputChars(part: ToolResultPart): number {
  return typeof part.output === 'string'
    ? part.output.length
    : part.output.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
}
