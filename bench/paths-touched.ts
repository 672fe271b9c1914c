import type { Message } from '@ctxhost/core';

/** Paths the agent read or wrote: the path arguments of tool calls (what a summary should still name). */
export function pathsTouched(messages: readonly Message[]): string[] {
  const paths = new Set<string>();
  for (const message of messages)
    for (const part of message.parts) {
      if (
        part.type !== 'tool-call' ||
        typeof part.input !== 'object' ||
        part.input === null ||
        Array.isArray(part.input)
      )
        continue;
      for (const key of ['file_path', 'path', 'notebook_path']) {
        const value = part.input[key];
        if (typeof value === 'string' && /\.\w{1,8}$/.test(value)) paths.add(value);
      }
    }
  return [...paths];
}
