import { contextWindowOf, type Host } from '@ctxhost/core';
import type {
  AssistantMessage,
  Event,
  Message as OpencodeMessage,
  Part as OpencodePart,
  UserMessage,
} from '@opencode-ai/sdk';
import { noteCompactionMarker, type MirrorRegistry, type MirrorState } from './mirror-registry.js';
import { providerErrorFromOpencode, type OpencodeError } from './provider-error-from-opencode.js';
import { isEmptyReply, silentOverflowError } from './empty-reply.js';
import { toCtxhostMessages, usageOf } from './to-ctxhost-messages.js';

export interface EventBridge {
  /** Takes one opencode event; processed in order, in the background. */
  accept(event: Event): void;
  /** Resolves when every event accepted so far has been processed (`session.idle` hooks may still run). */
  settled(): Promise<void>;
  /** `settled`, and the `session.idle` hooks started so far (recoveries) have finished too. */
  idle(): Promise<void>;
}

/**
 * Forwards opencode's events into the host: messages and parts are mirrored
 * into ctxhost sessions (so usage and tool outputs are known), and
 * `session.error`, `session.idle` and `session.deleted` are emitted under
 * their wire names. Events run one after another on a queue of their own, so
 * opencode never waits on a hook, and a failing step is logged, never thrown.
 */
export interface EventBridgeOptions {
  /**
   * True while opencode's own compaction is on (`compaction.auto`): opencode then
   * compacts and replays an overflowing prompt itself, so overflows are not
   * forwarded to ctxhost's recovery (two recoveries would compact one session twice).
   */
  opencodeCompacts?: () => boolean;
  /**
   * Reads a message's parts from opencode. A reply whose parts were not seen
   * before it completed (opencode delivers events to plugins late under load)
   * is checked against what opencode stored before it counts as empty.
   */
  readParts?: (sessionId: string, messageId: string) => Promise<OpencodePart[] | undefined>;
  /**
   * Reads a message and its parts from opencode. A reply still unfinished when its turn ends (`session.idle`)
   * is read back and mirrored from what opencode stored, before the idle hooks run.
   */
  readMessage?: (sessionId: string, messageId: string) => Promise<StoredMessage | undefined>;
  /** After each of opencode's compactions (`session.compacted`): runs beside the queue, never holding it. */
  compacted?: (sessionId: string) => Promise<void>;
}

/** A message as opencode stores it. */
export interface StoredMessage {
  info: OpencodeMessage;
  parts: OpencodePart[];
}

export function createEventBridge(host: Host, registry: MirrorRegistry, options: EventBridgeOptions = {}): EventBridge {
  let queue: Promise<void> = Promise.resolve();
  let saidStandingAside = false;
  const inFlight = new Set<Promise<void>>();
  const background = (work: Promise<void>, what = 'session.compacted') => {
    const running = work.catch((error: unknown) =>
      host.logger.error(`ctxhost could not process ${what}`, { error: String(error) }),
    );
    inFlight.add(running);
    void running.finally(() => inFlight.delete(running));
  };

  const handle = async (event: Event): Promise<void> => {
    switch (event.type) {
      case 'message.part.updated':
        return rememberPart(registry, event.properties.part);
      case 'message.updated':
        return event.properties.info.role === 'user'
          ? rememberUser(registry, event.properties.info)
          : mirrorAssistant(host, registry, event.properties.info, options.readParts);
      case 'session.error': {
        const { sessionID, error } = event.properties;
        if (sessionID === undefined || error === undefined) return;
        const opencodeError = error as OpencodeError;
        // The failed reply's own message.updated can come after session.idle, when a recovery is already planning.
        const state = registry.stateOf(sessionID);
        state.failedPrompt = state.lastPrompt?.messageId;
        const normalised = providerErrorFromOpencode(opencodeError);
        if (opencodeError.name === 'ContextOverflowError' && options.opencodeCompacts?.() === true) {
          if (!saidStandingAside)
            host.logger.info(
              "opencode's own compaction (compaction.auto) recovers overflows here, so ctxhost's recovery cascade stands aside; set compaction.auto to false (or OPENCODE_DISABLE_AUTOCOMPACT=1) to let ctxhost recover them",
            );
          saidStandingAside = true;
          return;
        }
        return host.emit('session.error', { sessionId: sessionID, error: normalised, raw: opencodeError });
      }
      case 'session.idle': {
        const sessionId = event.properties.sessionID;
        await mirrorUnfinished(host, registry, sessionId, options);
        endTurn(registry.peek(sessionId));
        // Not awaited: a recovery that starts on idle re-sends the prompt and waits for that turn's events, which come through this queue.
        background(host.emit('session.idle', { sessionId }), 'session.idle');
        return;
      }
      case 'session.compacted': {
        const after = registry.stateOf(event.properties.sessionID).afterCompaction;
        // A compaction ctxhost made to answer an empty reply keeps the count, so re-summaries stay bounded.
        if (!after.resummarizing) after.resummaries = 0;
        after.watching = true;
        if (options.compacted !== undefined) background(options.compacted(event.properties.sessionID));
        return;
      }
      case 'session.deleted': {
        const sessionId = event.properties.info.id;
        registry.drop(sessionId);
        return (await host.session(sessionId)).delete();
      }
      default:
        return;
    }
  };

  return {
    accept(event) {
      // opencode keeps changing the objects it published (a message's `time.completed` is set on the same info), and
      // the queue may reach an event seconds later (a summarize holds it): a snapshot keeps each event as it was sent.
      const sent = snapshotOf(event);
      queue = queue
        .then(() => handle(sent))
        .catch((error: unknown) =>
          host.logger.error(`ctxhost could not process opencode event ${event.type}`, { error: String(error) }),
        );
    },
    settled: () => queue,
    idle: async () => {
      await queue;
      await Promise.all(inFlight);
    },
  };
}

function snapshotOf(event: Event): Event {
  try {
    return structuredClone(event);
  } catch {
    return event;
  }
}

/** The first `session.idle` after a re-sent prompt's user message ends the turn `resend` waits for. */
function endTurn(state: MirrorState | undefined): void {
  if (state?.turnEnd?.started !== true) return;
  state.turnEnd.resolve();
  state.turnEnd = undefined;
}

function rememberPart(registry: MirrorRegistry, part: OpencodePart): void {
  const state = registry.stateOf(part.sessionID);
  if (part.type === 'compaction') noteCompactionMarker(state, part.messageID);
  if (state.mirrored.has(part.messageID)) return;
  const turn = state.turnEnd;
  if (
    turn !== undefined &&
    part.type === 'text' &&
    part.synthetic !== true &&
    part.text === turn.text &&
    part.messageID !== turn.previousMessageId
  )
    turn.started = true;
  let parts = state.parts.get(part.messageID);
  if (parts === undefined) {
    parts = new Map();
    state.parts.set(part.messageID, parts);
  }
  parts.set(part.id, part);
}

function rememberUser(registry: MirrorRegistry, info: UserMessage): void {
  const state = registry.stateOf(info.sessionID);
  if (!state.mirrored.has(info.id)) state.users.set(info.id, info);
  state.model = info.model;
}

async function mirrorAssistant(
  host: Host,
  registry: MirrorRegistry,
  info: AssistantMessage,
  readParts: EventBridgeOptions['readParts'],
): Promise<void> {
  const state = registry.stateOf(info.sessionID);
  state.model = { providerID: info.providerID, modelID: info.modelID };
  await flushUsers(host, state, info.sessionID);
  if (state.mirrored.has(info.id)) return;
  if (info.time.completed === undefined && info.error === undefined) {
    state.unfinished.add(info.id);
    return;
  }
  state.unfinished.delete(info.id);
  let parts = [...(state.parts.get(info.id)?.values() ?? [])];
  state.parts.delete(info.id);
  if (isEmptyReply(info, parts)) parts = (await readParts?.(info.sessionID, info.id)) ?? parts;
  state.mirrored.add(info.id);
  // opencode's summary stands in for what ctxhost's mirror already replaced with its own estimate when it asked for the summary;
  // its usage is the summary call's (the whole history), not the session's. It answers no prompt, so a failed one stays failed.
  if (info.summary === true) return;
  state.failedPrompt = info.error === undefined ? undefined : info.parentID;
  if (isEmptyReply(info, parts)) await onEmptyReply(host, state, info);
  state.afterCompaction.watching = false;
  const mirrored = toCtxhostMessages(info, parts, state.shortened);
  const [assistant, tools] = mirrored.messages;
  if (assistant === undefined || (assistant.parts.length === 0 && tools === undefined)) return;
  for (const part of parts) if (part.type === 'tool') state.shortened.delete(part.callID);
  const session = await host.session(info.sessionID);
  const usage = madeBeforeCompaction(state, info) ? undefined : mirrored.usage;
  await session.append(assistant, usage === undefined ? {} : { usage });
  if (tools !== undefined)
    await session.append(tools, mirrored.originals.length === 0 ? {} : { originals: mirrored.originals });
}

/**
 * A reply opencode made before its newest compaction marker: a prompt that reached opencode just before the
 * summarize was answered from the whole history, and its reply can reach the mirror after the compaction is in.
 * Its usage counted that history, so it is left out (the mirror's estimate stands) rather than read as the
 * session's size after the compaction (which compacted the session again on the next `session.idle`).
 */
function madeBeforeCompaction(state: MirrorState, info: AssistantMessage): boolean {
  return state.compactionMarker !== undefined && info.id < state.compactionMarker;
}

/**
 * The turn is over, yet a reply it started was never seen completed: its
 * completing update is late or did not reach the plugin. opencode's stored copy
 * is mirrored now, so the turn's usage counts before the idle hooks (preemptive
 * compaction) run; if the update comes later, it finds the reply mirrored.
 */
async function mirrorUnfinished(
  host: Host,
  registry: MirrorRegistry,
  sessionId: string,
  options: EventBridgeOptions,
): Promise<void> {
  const state = registry.peek(sessionId);
  if (state === undefined || options.readMessage === undefined) return;
  for (const messageId of [...state.unfinished]) {
    try {
      const stored = await options.readMessage(sessionId, messageId);
      if (stored?.info.role !== 'assistant') {
        state.unfinished.delete(messageId);
        continue;
      }
      for (const part of stored.parts) rememberPart(registry, part);
      await mirrorAssistant(host, registry, stored.info, options.readParts);
    } catch (error) {
      state.unfinished.delete(messageId);
      host.logger.warn('ctxhost could not read a reply that ended without its completing update', {
        sessionId,
        messageId,
        error: String(error),
      });
    }
  }
}

/**
 * A reply with nothing in it. At the window it is a silent overflow, recovered
 * like a 400 (forwarded as `session.error`); as the first reply after a
 * compaction it waits for a re-summary on `session.idle`. Either way the
 * prompt counts as failed, so nothing else compacts the session meanwhile.
 */
async function onEmptyReply(host: Host, state: MirrorState, info: AssistantMessage): Promise<void> {
  const session = await host.session(info.sessionID);
  const overflow = silentOverflowError(usageOf(info), contextWindowOf(session, host.config));
  if (overflow !== undefined) {
    state.failedPrompt = info.parentID;
    await host.emit('session.error', { sessionId: info.sessionID, error: overflow, raw: info });
    return;
  }
  if (!state.afterCompaction.watching) return;
  state.failedPrompt = info.parentID;
  state.afterCompaction.emptyReplyTo = info.parentID;
}

/** User messages are mirrored once their reply starts: by then opencode has sent all their parts. */
async function flushUsers(host: Host, state: MirrorState, sessionId: string): Promise<void> {
  if (state.users.size === 0) return;
  const session = await host.session(sessionId);
  for (const [id, info] of state.users) {
    state.users.delete(id);
    const parts = [...(state.parts.get(id)?.values() ?? [])];
    state.parts.delete(id);
    state.mirrored.add(id);
    const texts = parts.flatMap((part) => (part.type === 'text' && part.synthetic !== true ? [part.text] : []));
    if (texts.length > 0) state.lastPrompt = { messageId: id, texts, model: info.model, agent: info.agent };
    const [message] = toCtxhostMessages(info, parts, state.shortened).messages;
    // opencode's compaction marker is a user message with no text: nothing the model reads as a turn.
    if (message !== undefined && message.parts.length > 0) await session.append(message);
  }
}
