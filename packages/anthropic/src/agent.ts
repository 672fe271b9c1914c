import {
  createMessage,
  detectSilentOverflow,
  isAbortError,
  ORIGINAL_TOOL,
  ORIGINAL_TOOL_NAME,
  readOriginal,
  showsShortened,
  readWorkspaceFiles,
  resolveContextWindow,
  learnedWindowBound,
  capSessionWindow,
  type Host,
  type JsonValue,
  type Message,
  type ModelClient,
  type ModelResponse,
  type Part,
  type ProviderError,
  type Session,
  type ToolDefinition,
  type ToolResultPart,
} from '@ctxhost/core';
import { overflowFromResponse } from './anthropic-model.js';
import { countNearWindow } from './count-near-window.js';

/** A tool the agent can run: its definition for the model and its handler. */
export interface AgentTool {
  definition: ToolDefinition;
  /** Text, or content items (text and images) as a tool result carries them. */
  run(input: JsonValue, context: { sessionId: string; signal?: AbortSignal }): Promise<string | AgentToolOutput>;
}

export interface AgentToolOutput {
  output: ToolResultPart['output'];
  isError?: boolean;
  /**
   * End the turn once the results are appended, without asking the model again: what an
   * agent does when the user stops a tool (Claude Code records the refused call and waits
   * for the user's next message). The turn's outcome is `done` with the tool-call message.
   */
  endTurn?: boolean;
}

export interface AgentOptions {
  host: Host;
  model: ModelClient;
  tools?: AgentTool[];
  /** The system prompt, put at the head of a new session. */
  system?: string;
  /** Model calls per `send` at most (default 25). */
  maxTurns?: number;
  maxTokens?: number;
  stream?: boolean;
  /** Offer the model `ctxhost_original`, which reads back what a marker or summary names, once the session shows one (default true). */
  originalTool?: boolean;
  /**
   * After a compaction, the files the agent touched are re-read from this folder and shown beside the summary
   * (core's `rehydrate` hook; config `fidelity.rehydration`). Default: the process's working directory; false: off.
   */
  workspace?: string | false;
}

export type TurnOutcome =
  | { status: 'done'; message: Message; turns: number }
  | { status: 'error'; error: ProviderError; turns: number }
  | { status: 'max_turns'; turns: number };

export interface Agent {
  /** Appends the user's input and runs the model (and tools) until it stops; then emits `session.idle`. */
  send(sessionId: string, input: string | Message, options?: { signal?: AbortSignal }): Promise<TurnOutcome>;
  /** Runs the model on the session as it is (after a recovery), without a new user message. */
  retry(sessionId: string, options?: { signal?: AbortSignal }): Promise<TurnOutcome>;
}

export const AGENT = 'anthropic-agent';

/**
 * The agent loop on the host: each request goes through `beforeRequest`
 * (engine, hygiene, caching), each tool result through `toolResult`; an API
 * error is announced as `session.error` then `session.idle` (after the session
 * lock is released), so the recovery hook can act and ask for a `resend`.
 */
export function createAgent(options: AgentOptions): Agent {
  const { host, model } = options;
  const sessionsDriven = new Set<string>();

  host.hooks.resend.tapPromise(AGENT, async ({ sessionId, signal }) => {
    if (!sessionsDriven.has(sessionId)) return undefined;
    const outcome = await run(sessionId, undefined, signal);
    return outcome.status === 'done';
  });
  const workspace = options.workspace === undefined ? process.cwd() : options.workspace;
  if (workspace !== false)
    host.hooks.rehydrate.tapPromise(AGENT, async ({ sessionId, paths }) =>
      sessionsDriven.has(sessionId) ? readWorkspaceFiles(paths, { cwd: workspace }) : undefined,
    );
  host.hooks.sessionDeleted.tapPromise(AGENT, async ({ sessionId }) => {
    sessionsDriven.delete(sessionId);
  });

  async function run(
    sessionId: string,
    input: string | Message | undefined,
    signal: AbortSignal | undefined,
  ): Promise<TurnOutcome> {
    sessionsDriven.add(sessionId);
    const session = await host.session(sessionId);
    // The client's explicit window, else the config's (`model.context_length`, `models:`) or the registry's for this model,
    // capped by what overflows that named no limit taught about this model in this process, as it is at this turn.
    capSessionWindow(
      host,
      model.model,
      session,
      session.contextWindow ?? model.contextWindow ?? resolveContextWindow(host.config, model.model),
    );
    const outcome = await session.exclusive(async () => {
      if (options.system !== undefined && session.messages().length === 0)
        await session.append(createMessage('system', [{ type: 'text', text: options.system }]));
      if (input !== undefined)
        await session.append(
          typeof input === 'string' ? createMessage('user', [{ type: 'text', text: input }]) : input,
        );
      return loop(session, signal);
    });
    await host.emit('session.idle', { sessionId, ...(signal === undefined ? {} : { signal }) });
    // Aborted while the recovery waited or ran: the turn ends with the abort, not with the overflow it recovered from.
    signal?.throwIfAborted();
    return outcome;
  }

  async function loop(session: Session, signal: AbortSignal | undefined): Promise<TurnOutcome> {
    const maxTurns = options.maxTurns ?? 25;
    for (let turn = 1; turn <= maxTurns; turn++) {
      let response: ModelResponse;
      try {
        const draft = {
          sessionId: session.id,
          model: model.model,
          messages: session.messages(),
          tools: toolDefinitions(session),
          maxTokens: options.maxTokens ?? 4096,
        };
        await countNearWindow(session, model, draft, session.contextWindow, signal);
        const request = await host.hooks.beforeRequest.promise(draft, {
          sessionId: session.id,
          contextWindow: session.contextWindow,
          ...(signal === undefined ? {} : { signal }),
        });
        response = await model.create(request, {
          ...(signal === undefined ? {} : { signal }),
          ...(options.stream === undefined ? {} : { stream: options.stream }),
        });
      } catch (raw) {
        if (isAbortError(raw) || signal?.aborted) throw raw;
        const error = model.toProviderError(raw);
        await host.emit('session.error', { sessionId: session.id, error, raw });
        return { status: 'error', error, turns: turn };
      }
      const empty = response.message.parts.length === 0;
      const silent = detectSilentOverflow({ usage: response.usage, contextWindow: silentOverflowLine(session), empty });
      const overflow =
        overflowFromResponse(response) ?? (silent?.kind === 'empty_at_window' ? silent.error : undefined);
      if (overflow !== undefined || empty) {
        const error = overflow ?? { kind: 'server' as const, message: 'the model returned an empty message' };
        await host.emit('session.error', { sessionId: session.id, error, raw: response });
        return { status: 'error', error, turns: turn };
      }
      await session.append(response.message, { usage: response.usage });
      // Accepted over the window (the provider may have cut the prompt): the reply stands; the recorded usage puts the
      // session over every threshold, so the next request is compacted; say it once per turn.
      if (silent?.kind === 'over_window')
        await host.toast({
          sessionId: session.id,
          level: 'warning',
          title: 'Silent overflow',
          text: `The API accepted a prompt of ${silent.promptTokens} tokens, over the window of ${silent.contextWindow}; the provider may have truncated it. The next request is compacted.`,
          source: AGENT,
        });
      // Server compaction with pause_after_compaction: the reply is the compaction block alone; send again to get the answer.
      if (response.stopReason === 'compaction') continue;
      if (response.stopReason !== 'tool_use') return { status: 'done', message: response.message, turns: turn };
      if (await runTools(session, response.message, signal))
        return { status: 'done', message: response.message, turns: turn };
    }
    return { status: 'max_turns', turns: maxTurns };
  }

  /**
   * The window a reply's reported prompt is checked against: the session's, except when that is the largest prompt
   * answered under an overflow that named no limit (the limit is somewhere above it, below the smallest refused).
   */
  function silentOverflowLine(session: Session): number | undefined {
    const bound = learnedWindowBound(host, model.model);
    return bound?.fits !== undefined && bound.fits === session.contextWindow ? bound.rejected : session.contextWindow;
  }

  function toolDefinitions(session: Session): ToolDefinition[] {
    const definitions = [...(options.tools ?? []).map((tool) => tool.definition), ...(host.engine.tools?.() ?? [])];
    if (!offersOriginalTool() || definitions.some((definition) => definition.name === ORIGINAL_TOOL_NAME))
      return definitions;
    // Offered once something was shortened (a marker or a summary names a handle): no tokens spent on it before.
    return showsShortened(session.messages()) ? [...definitions, ORIGINAL_TOOL] : definitions;
  }

  function offersOriginalTool(): boolean {
    return options.originalTool !== false;
  }

  /** Runs the message's tool calls and appends their results; true when a tool asked to end the turn. */
  async function runTools(session: Session, message: Message, signal: AbortSignal | undefined): Promise<boolean> {
    const results: Part[] = [];
    const originals: Part[] = [];
    let endTurn = false;
    const resultMessageId = `${message.id}-results`;
    for (const [index, call] of message.parts.entries()) {
      if (call.type !== 'tool-call') continue;
      const raw = await callTool(call.name, call.input, session.id, signal);
      if (raw.endTurn === true) endTurn = true;
      const part: ToolResultPart = {
        id: `${resultMessageId}:${index}`,
        type: 'tool-result',
        callId: call.callId,
        name: call.name,
        output: raw.output,
        ...(raw.isError ? { isError: true } : {}),
      };
      const shown = await host.hooks.toolResult.promise(part, {
        sessionId: session.id,
        toolName: call.name,
        messageId: resultMessageId,
      });
      results.push(shown);
      if (shown !== part) originals.push(part);
    }
    await session.append(
      { id: resultMessageId, role: 'tool', parts: results },
      originals.length > 0 ? { originals } : {},
    );
    return endTurn;
  }

  async function callTool(
    name: string,
    input: JsonValue,
    sessionId: string,
    signal: AbortSignal | undefined,
  ): Promise<AgentToolOutput> {
    const context = { sessionId, ...(signal === undefined ? {} : { signal }) };
    try {
      const tool = options.tools?.find((candidate) => candidate.definition.name === name);
      if (tool !== undefined) {
        const result = await tool.run(input, context);
        return typeof result === 'string' ? { output: result } : result;
      }
      if (
        host.engine.callTool !== undefined &&
        (host.engine.tools?.() ?? []).some((definition) => definition.name === name)
      ) {
        const session = await host.session(sessionId);
        return await host.engine.callTool(name, input, { ...context, history: () => session.history() });
      }
      if (name === ORIGINAL_TOOL_NAME && offersOriginalTool())
        return await readOriginal(await host.session(sessionId), input);
      return { output: `Unknown tool "${name}".`, isError: true };
    } catch (error) {
      return {
        output: `Tool ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
        isError: true,
      };
    }
  }

  return {
    send: (sessionId, input, call = {}) => run(sessionId, input, call.signal),
    retry: (sessionId, call = {}) => run(sessionId, undefined, call.signal),
  };
}
