import type { Message } from '../model/message.js';
import { newMessageId } from '../model/part-ids.js';
import { createPromptOriginals, type PromptOriginals } from './prompt-originals.js';
import type { Session } from './session.js';

/** One framework prompt item as a ctxhost message (with the given id), or the type that kept it from being mapped. */
export type MappedPromptItem<P> =
  { ok: true; message: Message; sourceParts: readonly P[] } | { ok: false; unmappedType: string };

/** `restart`: the prompt shares nothing with the session's messages (another conversation under the same id). */
export type PromptSyncResult =
  | { ok: true; appended: number; diverged: boolean }
  | { ok: false; unmappedType: string }
  | { ok: false; restart: true };

export interface PromptMirror<S, P> {
  /**
   * Brings the session up to the caller's prompt: messages the session has are
   * matched by position and content, the rest appended (`message.updated` for
   * each). A prompt that no longer extends what was mirrored (the caller edited
   * or dropped messages) reverts what the model sees to where the two agree.
   */
  sync(session: Session, prompt: readonly S[]): Promise<PromptSyncResult>;
  /** Records a reply the model gave, so the caller's copy of it in the next prompt is recognised rather than stored twice. */
  appendReply(session: Session, message: Message, options?: Parameters<Session['append']>[1]): Promise<void>;
  originals(sessionId: string): PromptOriginals<S, P>;
  forget(sessionId: string): void;
}

interface MirrorState<S, P> {
  view: { id: string; key: string }[];
  originals: PromptOriginals<S, P>;
}

/**
 * A session's mirror of a prompt the caller owns (the AI SDK's, an agent
 * framework's): the caller sends its whole history on every call; the session
 * stores it once, append-only, and its projection is what hooks compact. Used
 * by the framework integrations (`@ctxhost/ai-sdk`, `@ctxhost/openai-agents`, `@ctxhost/mastra`, `@ctxhost/langchain`).
 */
export function createPromptMirror<S, P>(map: (source: S, id: string) => MappedPromptItem<P>): PromptMirror<S, P> {
  const states = new Map<string, MirrorState<S, P>>();
  const stateOf = (session: Session): MirrorState<S, P> => {
    let state = states.get(session.id);
    if (state === undefined) {
      // A session stored by an earlier process: its caller-side messages are the history minus what hooks added.
      const view = session
        .history()
        .filter((message) => message.meta?.summary === undefined && message.meta?.notice === undefined)
        .map((message) => ({ id: message.id, key: alignmentKey(message) }));
      state = { view, originals: createPromptOriginals() };
      states.set(session.id, state);
    }
    return state;
  };

  return {
    async sync(session, prompt) {
      const mapped: { message: Message; sourceParts: readonly P[] }[] = [];
      for (const source of prompt) {
        const result = map(source, 'pending');
        if (!result.ok) return { ok: false, unmappedType: result.unmappedType };
        mapped.push(result);
      }
      const state = stateOf(session);
      const keys = mapped.map((item) => alignmentKey(item.message));
      let common = 0;
      while (common < state.view.length && common < keys.length && state.view[common]!.key === keys[common]) common++;
      if (common === 0 && state.view.length > 0) return { ok: false, restart: true };
      const diverged = common < state.view.length;
      if (diverged) await rewind(session, state, common);
      for (let index = common; index < prompt.length; index++) {
        const message = withId(mapped[index]!.message, newMessageId());
        await session.append(message);
        state.view.push({ id: message.id, key: keys[index]! });
      }
      for (const [index, source] of prompt.entries())
        state.originals.remember(
          withId(mapped[index]!.message, state.view[index]!.id),
          source,
          mapped[index]!.sourceParts,
        );
      return { ok: true, appended: prompt.length - common, diverged };
    },
    async appendReply(session, message, options) {
      const state = stateOf(session);
      await session.append(message, options);
      state.view.push({ id: message.id, key: alignmentKey(message) });
    },
    originals: (sessionId) => states.get(sessionId)?.originals ?? createPromptOriginals(),
    forget: (sessionId) => void states.delete(sessionId),
  };
}

/** Drops the mirrored messages from `position` on: out of the view, and out of what the model sees when they are still in it. */
async function rewind<S, P>(session: Session, state: MirrorState<S, P>, position: number): Promise<void> {
  const dropped = state.view.splice(position);
  for (const entry of dropped) state.originals.forget(entry.id);
  const projection = session.messages();
  const ids = new Set(dropped.map((entry) => entry.id));
  // Dropped messages a compaction already summarized stay in that summary; the rest leave what the model sees.
  const firstDropped = projection.findIndex((message) => ids.has(message.id));
  if (firstDropped > 0) await session.revert(projection[firstDropped - 1]!.id);
}

function withId(message: Message, id: string): Message {
  return { ...message, id, parts: message.parts.map((part, index) => ({ ...part, id: `${id}:${index}` })) };
}

/** What a message says, without ids or cache markers: a reply recorded here and the caller's copy of it have the same key. */
export function alignmentKey(message: Message): string {
  return JSON.stringify([message.role, message.parts.map(({ id: _id, cacheControl: _cache, ...rest }) => rest)]);
}
