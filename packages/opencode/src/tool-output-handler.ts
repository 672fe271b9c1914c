import type { Host, ToolResultPart } from '@ctxhost/core';
import type { MirrorRegistry } from './mirror-registry.js';

export interface ToolExecuted {
  tool: string;
  sessionID: string;
  callID: string;
}

/**
 * opencode's `tool.execute.after`: passes the output through the host's
 * `toolResult` taps (the truncator) and, when a tap shortened it, hands the
 * shortened text back to opencode (so that is what opencode stores and sends)
 * and keeps the original until the message is mirrored, where it becomes the
 * part's original in ctxhost's store.
 */
export function createToolOutputHandler(host: Host, registry: MirrorRegistry, settled: () => Promise<void>) {
  return async (input: ToolExecuted, output: { output: string }): Promise<void> => {
    if (typeof output.output !== 'string') return;
    await settled();
    const id = toolPartId(registry, input.sessionID, input.callID);
    const part: ToolResultPart = {
      id,
      type: 'tool-result',
      callId: input.callID,
      name: input.tool,
      output: output.output,
    };
    const result = await host.hooks.toolResult.promise(part, {
      sessionId: input.sessionID,
      toolName: input.tool,
      messageId: input.callID,
    });
    if (result.compacted === undefined || typeof result.output !== 'string' || result.output === output.output) return;
    registry
      .stateOf(input.sessionID)
      .shortened.set(input.callID, { original: output.output, compacted: result.compacted });
    output.output = result.output;
  };
}

/** opencode's id for the tool part of a call (its running state was seen on `message.part.updated`), which is also the ctxhost part id. */
function toolPartId(registry: MirrorRegistry, sessionId: string, callId: string): string {
  for (const parts of registry.peek(sessionId)?.parts.values() ?? []) {
    for (const part of parts.values()) if (part.type === 'tool' && part.callID === callId) return part.id;
  }
  return callId;
}
