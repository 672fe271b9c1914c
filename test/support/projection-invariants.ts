import { validateProjection } from '@ctxhost/compaction';
import { groupMessages, type Message } from '@ctxhost/core';

/**
 * What every projection of a valid conversation must satisfy, whoever built it
 * (a strategy, a pipeline, the compressor). Returns one line per violation, so a
 * failing property prints what broke.
 * - no group split: of each original group, all or none of its messages are in the projection (by id);
 * - every system message is kept;
 * - every tool result has its call in the projection, and every call its result;
 * - no empty content: no message without parts, no blank text, no empty tool output;
 * - what the Messages API checks (validateProjection) holds.
 */
export function projectionProblems(original: readonly Message[], projection: readonly Message[]): string[] {
  const problems: string[] = [];
  const kept = new Set(projection.map((message) => message.id));
  for (const group of groupMessages(original)) {
    const present = group.messages.filter((message) => kept.has(message.id)).length;
    if (present !== 0 && present !== group.messageCount)
      problems.push(
        `group ${group.index} (${group.kind}) split: ${present} of ${group.messageCount} messages kept (${group.messages.map((message) => message.id).join(', ')})`,
      );
  }
  for (const message of original)
    if (message.role === 'system' && !kept.has(message.id)) problems.push(`system message ${message.id} dropped`);
  const calls = new Set(
    projection.flatMap((message) => message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.callId] : []))),
  );
  const results = new Set(
    projection.flatMap((message) =>
      message.parts.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : [])),
    ),
  );
  for (const callId of results) if (!calls.has(callId)) problems.push(`tool result ${callId} has no call`);
  for (const callId of calls) if (!results.has(callId)) problems.push(`tool call ${callId} has no result`);
  projection.forEach((message, index) => {
    if (message.parts.length === 0) problems.push(`message ${index} (${message.id}) has no parts`);
    for (const part of message.parts) {
      if (
        (part.type === 'text' && part.text.trim() === '') ||
        (part.type === 'tool-result' &&
          (part.output.length === 0 || (typeof part.output === 'string' && part.output.trim() === '')))
      ) {
        problems.push(`message ${index} (${message.id}) part ${part.id} is empty`);
      }
    }
  });
  for (const problem of validateProjection(projection)) problems.push(`API: ${problem.message}`);
  return problems;
}
