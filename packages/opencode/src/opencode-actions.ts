import type { createOpencodeClient, Message, Part } from '@opencode-ai/sdk';
import { createOpencodeClient as createClientV2 } from '@opencode-ai/sdk/v2';
import type { ToastLevel } from '@ctxhost/core';
import { OPENCODE_ERROR_CODES, OpencodeBridgeError } from './errors.js';

export type OpencodeClient = ReturnType<typeof createOpencodeClient>;

export interface OpencodeModelRef {
  providerID: string;
  modelID: string;
}

/** A user prompt as opencode stores it, enough to send it again. */
export interface OpencodePrompt {
  messageId: string;
  texts: string[];
  model: OpencodeModelRef | undefined;
  agent: string | undefined;
}

/**
 * What ctxhost asks opencode to do, through opencode's own client. Each
 * method throws an OpencodeBridgeError (CTXHOST_OPENCODE_ACTION_FAILED) naming
 * the call and the session when the server refuses.
 */
export interface OpencodeActions {
  toast(toast: { title: string; message: string; level: ToastLevel }): Promise<void>;
  /** Removes `messageId` and everything after it (opencode's revert). */
  revert(sessionId: string, messageId: string): Promise<void>;
  /** opencode's own compaction of the session, with the given model; returns the id of its compaction marker (the summary's prompt). */
  summarize(sessionId: string, model: OpencodeModelRef): Promise<string | undefined>;
  /** Starts a turn with these texts and returns at once (the turn's events follow). */
  prompt(sessionId: string, prompt: Omit<OpencodePrompt, 'messageId'>): Promise<void>;
  /** The session's messages with their parts, in opencode's order. */
  messages(sessionId: string): Promise<{ info: Message; parts: Part[] }[]>;
  /** Deletes one message and its parts (opencode refuses while the session is busy). */
  deleteMessage(sessionId: string, messageId: string): Promise<void>;
  /** The parts opencode stored for a message (undefined when it has no such message). */
  messageParts(sessionId: string, messageId: string): Promise<Part[] | undefined>;
  /** A message as opencode stored it, with its parts (undefined when it has no such message). */
  message(sessionId: string, messageId: string): Promise<{ info: Message; parts: Part[] } | undefined>;
  /** Replaces the output of a completed tool part in opencode's storage. */
  updateToolOutput(sessionId: string, messageId: string, partId: string, output: string): Promise<void>;
}

/** The actions over the client opencode hands its plugins (and, for part updates, the v2 client on the same server). */
export function createOpencodeActions(client: OpencodeClient, serverUrl: URL, directory: string): OpencodeActions {
  const clientV2 = createClientV2({ baseUrl: serverUrl.origin, directory });
  const message = (sessionId: string, messageId: string) =>
    check('session.message', sessionId, client.session.message({ path: { id: sessionId, messageID: messageId } }));
  return {
    async toast({ title, message, level }) {
      await check('tui.showToast', undefined, client.tui.showToast({ body: { title, message, variant: level } }));
    },
    async revert(sessionId, messageId) {
      await check(
        'session.revert',
        sessionId,
        client.session.revert({ path: { id: sessionId }, body: { messageID: messageId } }),
      );
    },
    async summarize(sessionId, model) {
      await check('session.summarize', sessionId, client.session.summarize({ path: { id: sessionId }, body: model }));
      // opencode answers true even when its summary call failed (the summary message then carries the error).
      const messages = await check('session.messages', sessionId, client.session.messages({ path: { id: sessionId } }));
      const summary = messages?.findLast(
        (message) => message.info.role === 'assistant' && message.info.summary === true,
      )?.info;
      if (summary?.role === 'assistant' && summary.error !== undefined) {
        const reason =
          typeof summary.error.data?.message === 'string' ? summary.error.data.message : summary.error.name;
        throw new OpencodeBridgeError(
          OPENCODE_ERROR_CODES.actionFailed,
          `opencode session.summarize for session ${sessionId} did not produce a summary: ${reason}`,
        );
      }
      return summary?.role === 'assistant' ? summary.parentID : undefined;
    },
    async prompt(sessionId, prompt) {
      const body = {
        parts: prompt.texts.map((text) => ({ type: 'text' as const, text })),
        ...(prompt.model === undefined ? {} : { model: prompt.model }),
        ...(prompt.agent === undefined ? {} : { agent: prompt.agent }),
      };
      await check('session.promptAsync', sessionId, client.session.promptAsync({ path: { id: sessionId }, body }));
    },
    async messages(sessionId) {
      return (await check('session.messages', sessionId, client.session.messages({ path: { id: sessionId } }))) ?? [];
    },
    async deleteMessage(sessionId, messageId) {
      await check(
        'session.deleteMessage',
        sessionId,
        clientV2.session.deleteMessage({ sessionID: sessionId, messageID: messageId }),
      );
    },
    async messageParts(sessionId, messageId) {
      return (await message(sessionId, messageId))?.parts;
    },
    message,
    async updateToolOutput(sessionId, messageId, partId, output) {
      const found = await check(
        'session.message',
        sessionId,
        client.session.message({ path: { id: sessionId, messageID: messageId } }),
      );
      const part = found?.parts.find((candidate) => candidate.id === partId);
      if (part?.type !== 'tool' || part.state.status !== 'completed') {
        throw new OpencodeBridgeError(
          OPENCODE_ERROR_CODES.actionFailed,
          `opencode session ${sessionId}: part ${partId} of message ${messageId} is not a completed tool call, so its output cannot be replaced`,
        );
      }
      const updated = { ...part, state: { ...part.state, output } };
      await check(
        'part.update',
        sessionId,
        clientV2.part.update({ sessionID: sessionId, messageID: messageId, partID: partId, part: updated }),
      );
    },
  };
}

type Result<T> = { data?: T; error?: unknown; response?: Response };

async function check<T>(
  call: string,
  sessionId: string | undefined,
  pending: Promise<Result<T>>,
): Promise<T | undefined> {
  const where = sessionId === undefined ? '' : ` for session ${sessionId}`;
  let result: Result<T>;
  try {
    result = await pending;
  } catch (cause) {
    throw new OpencodeBridgeError(
      OPENCODE_ERROR_CODES.actionFailed,
      `opencode ${call}${where} failed: ${String(cause)}; is the opencode server still running?`,
      { cause },
    );
  }
  if (result.error !== undefined) {
    const status = result.response?.status ?? 'unknown';
    throw new OpencodeBridgeError(
      OPENCODE_ERROR_CODES.actionFailed,
      `opencode ${call}${where} was refused (HTTP ${status}): ${JSON.stringify(result.error)}`,
      { cause: result.error },
    );
  }
  return result.data;
}
