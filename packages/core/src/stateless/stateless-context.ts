import type { Host } from '../host/host.js';
import type { MappedPromptItem } from '../host/prompt-mirror.js';
import { createPromptOriginals, type PromptOriginals } from '../host/prompt-originals.js';
import { resolveContextWindow } from '../host/context-usage.js';
import { relaxLearnedWindow, rememberConfiguredWindow, withLearnedWindow } from '../host/learned-window.js';
import type { JsonValue, Message } from '../model/message.js';
import type { EngineToolResult } from '../engines/context-engine.js';
import { readOriginal } from '../host/original-tool.js';
import type { ToolDefinition } from '../model/model-client.js';
import type { Usage } from '../model/usage.js';
import type { ProviderError } from '../model/provider-error.js';
import { createCompactionCache, type CompactionCache } from './compaction-cache.js';
import { createPromptChainer, type PromptChain } from './prompt-chain.js';
import type { HeadedPrompt } from './headed-prompt.js';
import { createReportOnce, type ReportOnce } from './report-once.js';
import { settingsHash } from './settings-hash.js';
import { commitRequest } from './commit-request.js';
import { createStatelessRecovery, type StatelessRecovery } from './stateless-recovery.js';
import { extendView, openView } from './stateless-view.js';
import { lastValidProjection, type LastValidProjection } from './last-valid-projection.js';
import { createViewPool, type StatelessView, type ViewPool } from './view-pool.js';

export interface StatelessContextOptions<S, P> {
  /** The host whose hooks run; called on the first request (build it lazily there). */
  host: () => Host | Promise<Host>;
  /** The integration's name, in warnings and tap names (`ai-sdk`, `langchain`, …). */
  name: string;
  /** Maps one of the framework's prompt items to a ctxhost message (or names the type it cannot map). */
  map: (source: S, id: string) => MappedPromptItem<P>;
  /** Live views kept in this process (default 256): the least recently used idle one goes first. */
  maxViews?: number;
  /**
   * The framework's error shapes: the overflow inside what it threw (LangChain wraps the provider's error),
   * or undefined when the error is no overflow. Default: core's shared parser on the error as thrown.
   */
  overflowOf?: (error: unknown) => ProviderError | undefined;
}

/** The request's settings, beside the prompt: they decide the window and what the waterfall plans with. */
export interface StatelessRequest {
  model: string;
  /** The model's window; default: `model.context_length` in the config, else the model registry's. */
  contextWindow?: number;
  maxOutputTokens: number;
  tools?: ToolDefinition[];
  signal?: AbortSignal;
}

/** One prepared request. Send with `run`, which recovers an overflow through the host's cascade. */
export interface StatelessTurn<S, P> {
  /**
   * What to send, or undefined: send the caller's prompt as it came (ctxhost stepped aside and said why, once).
   * When ctxhost failed for a prompt whose prefix has a stored compaction, that compaction plus the messages after it.
   */
  readonly messages: readonly Message[] | undefined;
  /** The caller's objects behind each message id: parts no hook changed are sent as the caller's own. */
  readonly originals: PromptOriginals<S, P>;
  /**
   * The prompt's objects as the chain keeps them (`PromptChain.sourceStorage`: entry `i` is the object the
   * prompt held at `i`, never changed), or undefined when ctxhost stepped aside or fell back. With a
   * renderer's `CallerList`, a request that is exactly the caller's list goes back as that list, uncopied.
   */
  readonly sourceStorage: readonly S[] | undefined;
  /**
   * What the request hooks added for the provider (`ModelRequest.providerOptions` in the wire's spelling:
   * native compaction's `context_management` and `betas`), or undefined when they added nothing. An
   * integration maps it to its framework's provider options where its provider carries them (see
   * `nativeFieldsOf`), and sends nothing of it where it does not.
   */
  readonly providerOptions: Readonly<Record<string, JsonValue>> | undefined;
  /**
   * Sends (`send` gets `messages`), and on an overflow (an error, or a `ContextWindowStop` thrown for a
   * 200 that is one) runs the recovery cascade, whose retries call `send` again with smaller projections.
   * Only a provider error ctxhost could not recover reaches the caller; a window stop it could not recover
   * resolves with the reply the provider gave.
   */
  run<T>(send: (messages: readonly Message[] | undefined) => Promise<T>, options?: RunOptions<T>): Promise<T>;
  /** The prompt's identity under the request's settings: a framework's retry of the same step has the same key. */
  readonly key: string;
  /**
   * For a framework that sends the request itself and retries a step when told to (Mastra's processors),
   * instead of `run`. An overflow of this turn: when a recovery of the same key is running (this turn is its
   * retry), the overflow is reported to it and this resolves at once; otherwise the cascade runs on this
   * turn's view, each `resend` storing the smaller projection (the retry's `prepare` finds it) before asking
   * `resend` whether the framework's retry was answered. Ends the turn.
   */
  recover(error: unknown, resend: (signal: AbortSignal | undefined) => Promise<boolean>): Promise<void>;
  /**
   * Instead of `run`, after the framework's own call: ends the turn. A usage passed is not used: on the
   * stateless path every threshold is measured on the prompt itself, so every worker decides alike.
   */
  finish(usage?: Usage): Promise<void>;
  /**
   * Instead of `run` or `finish`, after the framework's own call was answered (Mastra's processors): ends the turn,
   * and a prompt larger than the fit an overflow that named no limit taught raises the model's learned window, as
   * `run` does for a prompt it sent and a reported answer does on a session.
   */
  answered(): Promise<void>;
  /**
   * Answers a `ctxhost_original` call (`{ handle, fromLine?, toLine? }`) made on this turn's projection: a
   * marker's part id, a message id, or `<summary id>#<n>`, resolved against this prompt only. Works during
   * and after the turn; once the turn's view is gone, from a view of the prompt opened again from the store's
   * compaction cache. Never throws: a handle it cannot resolve is an error result the model reads.
   */
  readOriginal(input: JsonValue): Promise<EngineToolResult>;
}

export interface RunOptions<T> {
  /**
   * @deprecated Not used: a worker-local reported usage would make two workers decide differently whether
   * to compact the same prompt; thresholds are measured on the prompt itself (the same on every worker).
   */
  usageOf?(result: T): Usage | undefined;
}

export interface StatelessContext<S, P> {
  /**
   * The projection of `prompt` (the caller's whole prompt: one list, or a head the framework keeps apart and
   * its list, never copied into one) under the request's settings. Never throws.
   */
  prepare(prompt: readonly S[] | HeadedPrompt<S>, request: StatelessRequest): Promise<StatelessTurn<S, P>>;
  /** ctxhost's own trouble, once per cause. */
  readonly report: ReportOnce;
  /** Live views and the host (after the first request). */
  stats(): { views: number };
}

/**
 * ctxhost as a function of the caller's whole prompt plus a content-addressed cache of compaction
 * results (see the core README, "The stateless path"). No session id, no lock: a conversation is its
 * messages. A prompt that extends a live view costs what is new; a compaction is stored under the hash
 * of exactly the messages it replaces and the settings that made it, and used only for a prompt that
 * holds all of them, on any worker that shares the store.
 */
export function createStatelessContext<S, P>(options: StatelessContextOptions<S, P>): StatelessContext<S, P> {
  const chainer = createPromptChainer(options.map);
  let hostPromise: Promise<{ host: Host; cache: CompactionCache; recovery: StatelessRecovery }> | undefined;
  let currentHost: Host | undefined;
  const report = createReportOnce(() => currentHost?.logger, `ctxhost ${options.name}`);
  const pool: ViewPool<S, P> = createViewPool(options.maxViews ?? 256, (error) =>
    report('evict', 'an idle view could not be closed', error),
  );
  const inFlight = new Map<string, Promise<unknown>>();
  // A turn the framework dropped without ending it (the caller aborted, it threw before the call): its view goes back idle.
  const dropped = new FinalizationRegistry<StatelessView<S, P>>((view) => {
    if (!view.deleted) pool.release(view, { used: false });
  });

  const ready = () =>
    (hostPromise ??= Promise.resolve(options.host()).then((host) => {
      currentHost = host;
      return {
        host,
        cache: createCompactionCache(host.store, report),
        recovery: createStatelessRecovery(host, options.name, report, options.overflowOf),
      };
    }));

  const recovering = new Map<string, StatelessView<S, P>>();

  const passThrough = (): StatelessTurn<S, P> => ({
    messages: undefined,
    originals: createPromptOriginals(),
    sourceStorage: undefined,
    providerOptions: undefined,
    key: '',
    run: (send) => send(undefined),
    recover: async () => undefined,
    finish: async () => undefined,
    answered: async () => undefined,
    readOriginal: async (input) => nothingShortened(input),
  });

  async function viewFor(
    host: Host,
    cache: CompactionCache,
    chain: PromptChain<S, P>,
    settings: string,
    window: number | undefined,
    configured: number | undefined,
  ) {
    const cached = await cache.best(chain.hashes, settings);
    const live = pool.take(chain.hashes, settings);
    if (live === undefined) {
      const view = await openView(host, chain, cached, window, settings);
      // The window a recovery's forgotten bound gives back: the integration's, not the learned cap.
      rememberConfiguredWindow(view.session, configured);
      pool.add(view);
      return view;
    }
    try {
      live.session.contextWindow ??= window;
      await extendView(live, chain, cached);
      return live;
    } catch (error) {
      await pool.drop(live).catch(() => undefined);
      throw error;
    }
  }

  async function prepare(
    prompt: readonly S[] | HeadedPrompt<S>,
    request: StatelessRequest,
  ): Promise<StatelessTurn<S, P>> {
    let view: StatelessView<S, P> | undefined;
    let fallback: (() => Promise<LastValidProjection<S, P> | undefined>) | undefined;
    try {
      const { host, cache, recovery } = await ready();
      const chained = chainer.chain(prompt);
      if (!chained.ok) {
        report(
          `unmapped:${chained.unmappedType}`,
          `a prompt item of type "${chained.unmappedType}" has no place in ctxhost's message model; such prompts are sent untouched`,
        );
        return passThrough();
      }
      const chain = chained.chain;
      if (chain.length === 0) return passThrough();
      const configured = request.contextWindow ?? resolveContextWindow(host.config, request.model);
      // Capped by what an overflow that named no limit taught about this model, so its line is not probed again.
      const window = withLearnedWindow(host, request.model, configured);
      const settings = settingsHash(host, window, request.maxOutputTokens);
      fallback = () => lastValidProjection(cache, chain, settings);
      // Single flight: a second request for the same prompt waits for the first one's compaction, then reads it from the cache.
      const flightKey = `${chain.hashes.at(-1)}:${settings}`;
      await inFlight.get(flightKey)?.catch(() => undefined);
      const build = (async () => {
        view = await viewFor(host, cache, chain, settings, window, configured);
        return commitRequest(host, cache, view, chain, settings, request);
      })();
      inFlight.set(flightKey, build);
      const built = await build.finally(() => {
        if (inFlight.get(flightKey) === build) inFlight.delete(flightKey);
      });
      const taken = view!;
      const rebuild = () => commitRequest(host, cache, taken, chain, settings, request);
      let ended = false;
      const end = (drop: boolean): void => {
        if (ended) return;
        ended = true;
        // Referencing the turn here keeps it alive while `run` or `recover` is under way, whoever else holds it.
        dropped.unregister(turn);
        if (drop) void pool.drop(taken).catch(() => undefined);
        else pool.release(taken);
      };
      const readBack = async (input: JsonValue): Promise<EngineToolResult> => {
        if (!taken.deleted) return readOriginal(taken.session, input);
        // The view was evicted: the prompt and the cached compaction it was built from give the same history and summaries.
        const reopened = await openView(host, chain, await cache.best(chain.hashes, settings), window, settings);
        try {
          return await readOriginal(reopened.session, input);
        } finally {
          await reopened.session.delete().catch(() => undefined);
        }
      };
      const turn: StatelessTurn<S, P> = {
        messages: built.messages,
        originals: taken.originals,
        sourceStorage: chain.sourceStorage,
        readOriginal: (input) =>
          readBack(input).catch((error: unknown) => {
            report('read-original', 'an original could not be read back', error);
            return { output: `ctxhost could not read the original: ${messageOf(error)}`, isError: true };
          }),
        providerOptions: built.providerOptions,
        key: flightKey,
        async recover(error, resend) {
          const running = recovering.get(flightKey);
          if (running !== undefined && running !== taken) {
            end(false);
            return recovery.overflowAgain(running, error);
          }
          recovering.set(flightKey, taken);
          try {
            await recovery.recoverOnly(taken, error, rebuild, resend);
          } finally {
            if (recovering.get(flightKey) === taken) recovering.delete(flightKey);
            end(true);
          }
        },
        async finish() {
          end(false);
        },
        async answered() {
          if (!ended) raiseLearnedWindow(host, request.model, taken);
          end(false);
        },
        run: (send) =>
          recovery.run(taken, built.messages, send, rebuild).then(
            (outcome) => {
              if (!outcome.exhausted) raiseLearnedWindow(host, request.model, taken);
              end(outcome.exhausted);
              return outcome.value;
            },
            (error: unknown) => {
              end(true);
              throw error;
            },
          ),
      };
      dropped.register(turn, taken, turn);
      return turn;
    } catch (error) {
      if (view !== undefined) await pool.drop(view).catch(() => undefined);
      const last = await fallback?.();
      if (last === undefined) {
        report(causeOf(error), 'preparing the request failed', error);
        return passThrough();
      }
      report(
        causeOf(error),
        'preparing the request failed',
        error,
        'the request went out with the last valid projection of its prefix plus the messages after it',
      );
      return {
        ...passThrough(),
        messages: last.messages,
        originals: last.originals,
        run: (send) => send(last.messages),
      };
    }
  }

  return { prepare, report, stats: () => ({ views: pool.size }) };
}

/**
 * The turn's prompt was answered: larger than the fit an overflow that named no limit taught, it raises the
 * model's learned window, as a reported answer does on a session. Counted by the view's running count (what
 * was appended since its last count), and only when a bound is learned.
 */
function raiseLearnedWindow<S, P>(host: Host, model: string, view: StatelessView<S, P>): void {
  if (!relaxLearnedWindow(host, model, () => view.session.promptSize().tokens)) return;
  const window = withLearnedWindow(host, model, undefined);
  host.logger.debug(
    `a prompt larger than the learned window of ${model} was answered; the learned window ${window === undefined ? 'is forgotten' : `relaxes to ${window}`}`,
    { model },
  );
}

/** A prompt sent as it came was never shortened: no handle of it can name anything. */
function nothingShortened(input: JsonValue): EngineToolResult {
  return {
    output: `Nothing in this prompt was shortened, so there is no original to read (${JSON.stringify(input)}).`,
    isError: true,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function causeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'error';
}
