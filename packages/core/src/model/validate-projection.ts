import type { Message } from './message.js';
import { nativeCompactionOf } from './native-compaction-part.js';

export type ProjectionProblemCode =
  'empty_projection' | 'first_not_user' | 'empty_content' | 'orphan_result' | 'unanswered_call';

/** Something the Messages API would reject, at message `index` (and `callId` for tool pairing). */
export interface ProjectionProblem {
  code: ProjectionProblemCode;
  index: number;
  callId?: string;
  message: string;
}

/**
 * Checks a projection for what the API rejects: no messages besides system ones,
 * a first non-system message not from the user, empty content (a message with no
 * parts, except a final assistant one, or a blank text part), a tool result that
 * answers no call of the assistant message just before it (user and tool messages
 * in between count as the same turn), and a call with no result in the messages
 * that follow it before the next assistant message. Returns every problem found.
 */
export function validateProjection(messages: readonly Message[]): ProjectionProblem[] {
  const problems: ProjectionProblem[] = [];
  const firstIndex = messages.findIndex((message) => message.role !== 'system');
  if (firstIndex < 0)
    return [{ code: 'empty_projection', index: 0, message: 'the projection has no user or assistant message' }];
  // A provider's compaction stands for everything before it: an assistant message that opens with one may come first.
  if (messages[firstIndex]!.role !== 'user' && !opensWithNativeCompaction(messages[firstIndex]!)) {
    problems.push({
      code: 'first_not_user',
      index: firstIndex,
      message: `messages.${firstIndex}: the first non-system message is from the ${messages[firstIndex]!.role}, not the user`,
    });
  }
  messages.forEach((message, index) => checkContent(message, index, index === messages.length - 1, problems));
  checkToolPairing(messages, problems);
  return problems.sort((left, right) => left.index - right.index);
}

function opensWithNativeCompaction(message: Message): boolean {
  const first = message.parts[0];
  return message.role === 'assistant' && first !== undefined && nativeCompactionOf(first) !== undefined;
}

function checkContent(message: Message, index: number, isLast: boolean, problems: ProjectionProblem[]): void {
  if (message.parts.length === 0 && !(isLast && message.role === 'assistant')) {
    problems.push({
      code: 'empty_content',
      index,
      message: `messages.${index}: the ${message.role} message has no content`,
    });
  }
  message.parts.forEach((part, partIndex) => {
    // An OpenAI compaction item without a readable copy yet is text '' here; the item itself is what is sent.
    if (part.type === 'text' && part.text.trim() === '' && nativeCompactionOf(part) === undefined) {
      problems.push({
        code: 'empty_content',
        index,
        message: `messages.${index}.content.${partIndex}: text content blocks must be non-empty`,
      });
    }
  });
}

function checkToolPairing(messages: readonly Message[], problems: ProjectionProblem[]): void {
  let open = new Map<string, number>();
  const flushUnanswered = () => {
    for (const [callId, index] of open)
      problems.push({
        code: 'unanswered_call',
        index,
        callId,
        message: `messages.${index}: tool call ${callId} has no result in the messages that follow it`,
      });
  };
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      flushUnanswered();
      open = new Map();
      for (const part of message.parts) if (part.type === 'tool-call') open.set(part.callId, index);
      return;
    }
    for (const part of message.parts) {
      if (part.type !== 'tool-result') continue;
      if (open.delete(part.callId)) continue;
      problems.push({
        code: 'orphan_result',
        index,
        callId: part.callId,
        message: `messages.${index}: tool result ${part.callId} answers no call of the assistant message before it`,
      });
    }
  });
  flushUnanswered();
}
