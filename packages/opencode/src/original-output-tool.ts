import { tool, type ToolDefinition } from '@opencode-ai/plugin';
import type { Host } from '@ctxhost/core';

export const ORIGINAL_OUTPUT_TOOL = 'ctxhost_original';

/**
 * A tool the model can call to read lines of a tool output ctxhost shortened:
 * the truncation marker names the part, the store keeps the original.
 */
export function createOriginalOutputTool(host: Host): ToolDefinition {
  return tool({
    description:
      'Read lines of a tool output that ctxhost shortened to fit the context window. ' +
      'Pass the part id named in the "[... cut from the middle of this output by ctxhost ...]" marker and a line range (1-based, inclusive).',
    args: {
      partId: tool.schema.string().describe('the part id named in the truncation marker'),
      fromLine: tool.schema.number().int().min(1).describe('first line to return, 1-based'),
      toLine: tool.schema.number().int().min(1).describe('last line to return, inclusive'),
    },
    async execute(args, context) {
      const session = await host.session(context.sessionID);
      const original = await session.original(args.partId);
      if (original?.type !== 'tool-result') return `No shortened tool output with part id ${args.partId} in this session; check the id in the truncation marker.`;
      const text = typeof original.output === 'string' ? original.output : original.output.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
      const lines = text.split('\n');
      const from = Math.min(args.fromLine, lines.length);
      const to = Math.min(Math.max(args.toLine, from), lines.length);
      return `Lines ${from}-${to} of ${lines.length} of the original output of part ${args.partId}:\n${lines.slice(from - 1, to).join('\n')}`;
    },
  });
}
