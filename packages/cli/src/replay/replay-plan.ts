import {
  toAnthropic,
  type JsonValue,
  type Message,
  type Part,
  type ToolDefinition,
  type ToolResultPart,
} from '@ctxhost/core';
import type { ContentBlock } from '@ctxhost/simulator';

/** One recorded assistant turn, answered when a request ends the way the recording did before it. */
export interface RecordedTurn {
  sessionId: string;
  /** The model the transcript says answered (absent when it does not say). */
  model?: string;
  content: ContentBlock[];
  callIds: string[];
  /** The output tokens the recording was billed for this turn (absent when its usage was not recorded). */
  outputTokens?: number;
}

/** A conversation to drive: the user messages to send, in order (a subagent is one of these). */
export interface ReplayThread {
  sessionId: string;
  userTurns: Message[];
}

export interface ReplayPlan {
  /** The main thread's first segment (up to the agent's first own compaction, or all of it). */
  main: ReplayThread;
  /**
   * The main thread as the model saw it: one conversation per segment between the
   * agent's own compaction boundaries, oldest first (`main` is the first). A later
   * segment opens with the agent's summary, as its requests did.
   */
  segments: ReplayThread[];
  /** Messages the agent's UI logged but never sent (`/exit`, local command output, interruptions): left out. */
  uiOnlyMessages: number;
  /** Recorded assistant turns by the key of the request that produced them (see `requestKey`), oldest first. */
  turns: Map<string, RecordedTurn[]>;
  /** Recorded tool outputs by call id. */
  outputs: Map<string, { output: ToolResultPart['output']; isError: boolean }>;
  /** Subagent (sidechain) conversations, run while the main thread's call that started them runs. */
  subagents: Map<string, ReplayThread[]>;
  /**
   * Call ids the transcript records an answer after (a recorded assistant turn keyed by
   * their results). After a call that is not among them — the user stopped the tool, or
   * the transcript ends there — the replay ends the turn instead of asking the model
   * for a turn nobody recorded.
   */
  answeredCalls: Set<string>;
  /** User messages the transcript records no answer to, sent with the thread's next user message (an interrupted request). */
  userTurnsSentWithNext: number;
  /** User messages the transcript records no answer to and no later one to send them with (the thread ends on them): left out. */
  userTurnsLeftOut: number;
  tools: ToolDefinition[];
  /** The transcript's system prompt (its system messages' text), put at the head of every replayed session. */
  system: string | undefined;
  assistantTurns: number;
}

const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);

/**
 * Turns a transcript into what a replay needs: the user turns per thread, the
 * assistant's recorded turns keyed by what preceded them, the tool outputs by
 * call id, and each sidechain attached to the main-thread call that ran it.
 */
export function buildReplayPlan(
  messages: readonly Message[],
  mainId = 'replay',
  options: {
    boundaries?: readonly number[];
    /** Each recorded request's output tokens by the index of the assistant message it produced. */
    outputTokens?: ReadonlyMap<number, number>;
  } = {},
): ReplayPlan {
  const main: ReplayThread = { sessionId: mainId, userTurns: [] };
  const plan: ReplayPlan = {
    main,
    segments: [main],
    uiOnlyMessages: 0,
    turns: new Map(),
    outputs: new Map(),
    subagents: new Map(),
    answeredCalls: new Set(),
    userTurnsSentWithNext: 0,
    userTurnsLeftOut: 0,
    tools: [],
    system: undefined,
    assistantTurns: 0,
  };
  const boundaries = new Set(options.boundaries ?? []);
  const toolNames = new Set<string>();
  const threads = new Map<
    string,
    { thread: ReplayThread; previous: Message | undefined; last: RecordedTurn | undefined }
  >();
  threads.set('main', { thread: plan.main, previous: undefined, last: undefined });
  const openCalls: { callId: string; name: string; prompt: string | undefined; used: boolean }[] = [];
  let subagentCount = 0;
  const sideSessions = new Map<string, string>();
  for (const [index, message] of messages.entries()) {
    const sidechain = message.meta?.sidechain === true;
    if (!sidechain && boundaries.has(index) && plan.segments.some((segment) => segment.userTurns.length > 0)) {
      const segment: ReplayThread = { sessionId: `${mainId}/segment-${plan.segments.length + 1}`, userTurns: [] };
      plan.segments.push(segment);
      threads.set('main', { thread: segment, previous: undefined, last: undefined });
    }
    if (message.meta?.uiOnly !== undefined) {
      plan.uiOnlyMessages++;
      continue;
    }
    if (message.role === 'system') {
      plan.system =
        [plan.system, ...message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []))]
          .filter((text) => text !== undefined && text !== '')
          .join('\n\n') || undefined;
      continue;
    }
    const side = sidechain ? String(message.meta?.thread ?? 'side') : 'main';
    if (sidechain && !sideSessions.has(side)) {
      const sessionId = `${mainId}/subagent-${++subagentCount}`;
      sideSessions.set(side, sessionId);
      threads.set(side, { thread: { sessionId, userTurns: [] }, previous: undefined, last: undefined });
      const text = firstText(message);
      const free = openCalls.filter((call) => !call.used);
      const owner =
        free.find((call) => call.prompt !== undefined && call.prompt === text) ??
        free.find((call) => SUBAGENT_TOOLS.has(call.name)) ??
        free.at(-1);
      if (owner !== undefined) {
        owner.used = true;
        plan.subagents.set(owner.callId, [threads.get(side)!.thread]);
      }
    }
    const state = threads.get(side)!;
    for (const part of message.parts) {
      if (part.type === 'tool-call') toolNames.add(part.name);
      if (part.type === 'tool-result')
        plan.outputs.set(part.callId, { output: part.output, isError: part.isError === true });
    }
    if (message.role === 'user' && hasText(message)) {
      if (state.previous?.role === 'user' && hasText(state.previous))
        state.thread.userTurns.at(-1)!.parts.push(...message.parts.filter(isUserContent));
      else state.thread.userTurns.push({ ...message, parts: message.parts.filter(isUserContent) });
    }
    if (message.role === 'assistant') {
      const content = assistantBlocks(message);
      const callIds = message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.callId] : []));
      if (!sidechain)
        openCalls.push(
          ...message.parts.flatMap((part) =>
            part.type === 'tool-call'
              ? [{ callId: part.callId, name: part.name, prompt: promptOf(part.input), used: false }]
              : [],
          ),
        );
      const outputTokens = options.outputTokens?.get(index);
      if (state.previous?.role === 'assistant' && state.last !== undefined) {
        state.last.content.push(...content);
        state.last.callIds.push(...callIds);
        // A turn is billed as recorded only when every message in it has its usage.
        if (state.last.outputTokens !== undefined && outputTokens !== undefined)
          state.last.outputTokens += outputTokens;
        else delete state.last.outputTokens;
      } else {
        const key = state.previous === undefined ? undefined : keyOfMessage(state.previous);
        if (key !== undefined) {
          const model = message.meta?.model;
          state.last = {
            sessionId: state.thread.sessionId,
            content,
            callIds,
            ...(typeof model === 'string' ? { model } : {}),
            ...(outputTokens === undefined ? {} : { outputTokens }),
          };
          plan.turns.set(key, [...(plan.turns.get(key) ?? []), state.last]);
          plan.assistantTurns++;
        }
      }
    }
    state.previous = message;
  }
  for (const key of plan.turns.keys())
    if (key.startsWith(RESULT_PREFIX))
      for (const callId of key.slice(RESULT_PREFIX.length).split(',')) plan.answeredCalls.add(callId);
  for (const thread of [...plan.segments, ...[...plan.subagents.values()].flat()]) foldUnanswered(plan, thread);
  plan.tools = [...toolNames].sort().map((name) => ({
    name,
    description: `The recorded tool ${name}: answers with the output the transcript recorded.`,
    inputSchema: { type: 'object' },
  }));
  return plan;
}

/** The key of a conversation's last message: its tool results' call ids, or its last text. */
export function keyOfMessage(message: Message): string | undefined {
  const results = message.parts.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : []));
  if (results.length > 0) return resultKey(results);
  const text = message.parts.findLast((part) => part.type === 'text');
  return text?.type === 'text' ? `user:${text.text.trim()}` : undefined;
}

const RESULT_PREFIX = 'result:';

/** Tool results key by the set of their call ids: a transcript may record them in another order than the calls. */
export function resultKey(callIds: readonly string[]): string {
  return `${RESULT_PREFIX}${[...callIds].sort().join(',')}`;
}

/**
 * A user message the transcript records no answer to (the user interrupted the reply and
 * wrote again) went to the model with the next one: it is sent with it, not on its own,
 * so the replay asks for no turn nobody recorded. One the thread ends on is left out.
 */
function foldUnanswered(plan: ReplayPlan, thread: ReplayThread): void {
  const kept: Message[] = [];
  let carried: Part[] = [];
  let carriedTurns = 0;
  for (const turn of thread.userTurns) {
    const key = keyOfMessage(turn);
    const parts = [...carried, ...turn.parts];
    if (key !== undefined && !plan.turns.has(key)) {
      carried = parts;
      carriedTurns++;
      continue;
    }
    kept.push(carriedTurns === 0 ? turn : { ...turn, parts });
    plan.userTurnsSentWithNext += carriedTurns;
    carried = [];
    carriedTurns = 0;
  }
  plan.userTurnsLeftOut += carriedTurns;
  thread.userTurns = kept;
}

function firstText(message: Message): string | undefined {
  const text = message.parts.find((part) => part.type === 'text');
  return text?.type === 'text' ? text.text.trim() : undefined;
}

function promptOf(input: JsonValue): string | undefined {
  return typeof input === 'object' && input !== null && !Array.isArray(input) && typeof input.prompt === 'string'
    ? input.prompt.trim()
    : undefined;
}

/** A user turn: text, pasted images and files (they are part of the prompt and count). */
function hasText(message: Message): boolean {
  return message.parts.some(isUserContent) && !message.parts.some((part) => part.type === 'tool-result');
}

function isUserContent(part: Part): boolean {
  return part.type === 'text' || part.type === 'image' || part.type === 'file';
}

function assistantBlocks(message: Message): ContentBlock[] {
  const wire = toAnthropic([
    { ...message, parts: message.parts.filter((part) => part.type === 'text' || part.type === 'tool-call') },
  ]).messages[0];
  if (wire === undefined) return [];
  if (typeof wire.content === 'string') return [{ type: 'text', text: wire.content }];
  return (wire.content as unknown as ContentBlock[]).filter(
    (block) => block.type === 'text' || block.type === 'tool_use',
  );
}
