import type { Host } from '@ctxhost/core';
import type { AssistantMessage, Event, Part as OpencodePart, UserMessage } from '@opencode-ai/sdk';
import type { MirrorRegistry, MirrorState } from './mirror-registry.js';
import { providerErrorFromOpencode, type OpencodeError } from './provider-error-from-opencode.js';
import { toCtxhostMessages } from './to-ctxhost-messages.js';

export interface EventBridge {
  /** Takes one opencode event; processed in order, in the background. */
  accept(event: Event): void;
  /** Resolves when every event accepted so far has been processed. */
  settled(): Promise<void>;
}

/**
 * Forwards opencode's events into the host: messages and parts are mirrored
 * into ctxhost sessions (so usage and tool outputs are known), and
 * `session.error`, `session.idle` and `session.deleted` are emitted under
 * their wire names. Events run one after another on a queue of their own, so
 * opencode never waits on a hook, and a failing step is logged, never thrown.
 */
export function createEventBridge(host: Host, registry: MirrorRegistry): EventBridge {
  let queue: Promise<void> = Promise.resolve();

  const handle = async (event: Event): Promise<void> => {
    switch (event.type) {
      case 'message.part.updated':
        return rememberPart(registry, event.properties.part);
      case 'message.updated':
        return event.properties.info.role === 'user' ? rememberUser(registry, event.properties.info) : mirrorAssistant(host, registry, event.properties.info);
      case 'session.error': {
        const { sessionID, error } = event.properties;
        if (sessionID === undefined || error === undefined) return;
        const opencodeError = error as OpencodeError;
        return host.emit('session.error', { sessionId: sessionID, error: providerErrorFromOpencode(opencodeError), raw: opencodeError });
      }
      case 'session.idle':
        return host.emit('session.idle', { sessionId: event.properties.sessionID });
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
      queue = queue.then(() => handle(event)).catch((error: unknown) => host.logger.error(`ctxhost could not process opencode event ${event.type}`, { error: String(error) }));
    },
    settled: () => queue,
  };
}

function rememberPart(registry: MirrorRegistry, part: OpencodePart): void {
  const state = registry.stateOf(part.sessionID);
  if (state.mirrored.has(part.messageID)) return;
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

async function mirrorAssistant(host: Host, registry: MirrorRegistry, info: AssistantMessage): Promise<void> {
  const state = registry.stateOf(info.sessionID);
  state.model = { providerID: info.providerID, modelID: info.modelID };
  await flushUsers(host, state, info.sessionID);
  if (state.mirrored.has(info.id) || (info.time.completed === undefined && info.error === undefined)) return;
  const parts = [...(state.parts.get(info.id)?.values() ?? [])];
  state.parts.delete(info.id);
  state.mirrored.add(info.id);
  const mirrored = toCtxhostMessages(info, parts, state.shortened);
  const [assistant, tools] = mirrored.messages;
  if (assistant === undefined || (assistant.parts.length === 0 && tools === undefined)) return;
  for (const part of parts) if (part.type === 'tool') state.shortened.delete(part.callID);
  const session = await host.session(info.sessionID);
  await session.append(assistant, mirrored.usage === undefined ? {} : { usage: mirrored.usage });
  if (tools !== undefined) await session.append(tools, mirrored.originals.length === 0 ? {} : { originals: mirrored.originals });
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
    if (message !== undefined) await session.append(message);
  }
}
