import type { Message } from '@ctxhost/core';

const PATH = /(?:\.{0,2}\/)?(?:[\w.@-]+\/)+[\w.@-]+\.\w{1,8}\b/g;

/**
 * An extractive summary of a span, for when the host has no summarizer: the
 * user's requests, the tools called, the file paths touched and the errors met.
 * Short on purpose — the span itself is one `lcm_expand` away.
 */
export function extractSummary(messages: readonly Message[]): string {
  const asks = new Set<string>();
  const tools = new Map<string, number>();
  const paths = new Set<string>();
  const errors = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'text') {
        if (message.role === 'user') asks.add(part.text.trim().split('\n')[0]!.slice(0, 160));
        for (const path of part.text.match(PATH) ?? []) paths.add(path);
      } else if (part.type === 'tool-call') {
        tools.set(part.name, (tools.get(part.name) ?? 0) + 1);
        for (const path of JSON.stringify(part.input).match(PATH) ?? []) paths.add(path);
      } else if (part.type === 'tool-result') {
        const text =
          typeof part.output === 'string'
            ? part.output
            : part.output.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
        const error = /^.*\b(error|Error|failed|FAILED|Traceback)\b.*$/m.exec(text);
        if (part.isError === true || error !== null) errors.add((error?.[0] ?? text).trim().slice(0, 160));
      }
    }
  }
  const list = (items: Iterable<string>, limit: number) =>
    [...items].filter(Boolean).slice(0, limit).join('; ') || 'none';
  return [
    `requests: ${list(asks, 6)}`,
    `tools: ${[...tools].map(([name, count]) => `${name}×${count}`).join(', ') || 'none'}`,
    `files: ${list(paths, 30)}`,
    `errors: ${list(errors, 5)}`,
  ].join('\n');
}

export function messageText(message: Message): string {
  return message.parts
    .map((part) => {
      if (part.type === 'text' || part.type === 'reasoning') return part.text;
      if (part.type === 'tool-call') return `[call ${part.name}] ${JSON.stringify(part.input)}`;
      if (part.type === 'tool-result')
        return typeof part.output === 'string'
          ? part.output
          : part.output.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
      return `[${part.type}]`;
    })
    .join('\n');
}
