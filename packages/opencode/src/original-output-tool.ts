import { tool, type ToolDefinition } from '@opencode-ai/plugin';
import { ORIGINAL_TOOL, ORIGINAL_TOOL_NAME, readOriginal, type Host } from '@ctxhost/core';

/** Core's `ctxhost_original`, registered as an opencode tool. */
export const ORIGINAL_OUTPUT_TOOL = ORIGINAL_TOOL_NAME;

/**
 * Core's retrieval tool for opencode: the model reads back a tool output
 * ctxhost shortened, or a message a summary covers, by the handle its marker
 * names. `partId` is still accepted (the name of this tool's first version).
 */
export function createOriginalOutputTool(host: Host): ToolDefinition {
  return tool({
    description: ORIGINAL_TOOL.description,
    args: {
      handle: tool.schema
        .string()
        .optional()
        .describe('the handle named in the marker or the summary (a part id, a message id, or "<summary id>#<n>")'),
      partId: tool.schema.string().optional().describe('the same as handle (older name)'),
      fromLine: tool.schema.number().int().min(1).optional().describe('first line to return, 1-based'),
      toLine: tool.schema.number().int().min(1).optional().describe('last line to return, inclusive'),
    },
    async execute(args, context) {
      const session = await host.session(context.sessionID);
      const result = await readOriginal(session, args);
      return result.output;
    },
  });
}
