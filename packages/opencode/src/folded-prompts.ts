import type { Message, Part } from '@opencode-ai/sdk';
import type { MirrorRegistry } from './mirror-registry.js';
import type { OpencodeActions, OpencodePrompt } from './opencode-actions.js';

/** One of opencode's messages, as `session.messages` returns it. */
export interface OpencodeMessage {
  info: Message;
  parts: Part[];
}

/**
 * The prompts opencode folded into the summary turn of the session's last
 * compaction. opencode takes a prompt's id and time when it arrives, and
 * stores it only after the `chat.message` hooks ran; a prompt that arrived
 * before the compaction marker but was stored after it sorts before the
 * marker, so the summary reply comes last and the prompt counts as answered.
 * Those are the user messages with text between the last answered prompt and
 * the marker that have no reply of their own.
 */
export function foldedPrompts(messages: readonly OpencodeMessage[]): OpencodePrompt[] {
  const marker = messages.findLastIndex(
    ({ info, parts }) => info.role === 'user' && parts.some((part) => part.type === 'compaction'),
  );
  const answered = new Set(messages.flatMap(({ info }) => (info.role === 'assistant' ? [info.parentID] : [])));
  const folded: OpencodePrompt[] = [];
  for (let index = marker - 1; index >= 0; index--) {
    const { info, parts } = messages[index]!;
    if (info.role !== 'user') continue;
    if (answered.has(info.id)) break;
    const texts = parts.flatMap((part) => (part.type === 'text' && part.synthetic !== true ? [part.text] : []));
    if (texts.length > 0) folded.unshift({ messageId: info.id, texts, model: info.model, agent: info.agent });
  }
  return folded;
}

/**
 * Sends the folded prompts again, now that the summary is in: each folded
 * copy is deleted first (so the history shows the prompt once, after the
 * summary) and left out of ctxhost's mirror if it is not there yet. A copy
 * opencode does not let go of stays where it is, and the prompt is sent
 * anyway (`onDeleteFailed` says why). Returns the prompts sent again.
 */
export async function resendFoldedPrompts(
  actions: OpencodeActions,
  registry: MirrorRegistry,
  sessionId: string,
  onDeleteFailed: (prompt: OpencodePrompt, error: unknown) => void,
): Promise<OpencodePrompt[]> {
  const folded = foldedPrompts(await actions.messages(sessionId));
  for (const prompt of folded) {
    try {
      await actions.deleteMessage(sessionId, prompt.messageId);
      const state = registry.peek(sessionId);
      if (state?.users.delete(prompt.messageId) === true) state.mirrored.add(prompt.messageId);
    } catch (error) {
      onDeleteFailed(prompt, error);
    }
    await actions.prompt(sessionId, { texts: prompt.texts, model: prompt.model, agent: prompt.agent });
  }
  return folded;
}
