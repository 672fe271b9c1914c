import {
  contextWindowOf,
  formatTokens,
  isAbortError,
  parseTokenLimitError,
  readHookSection,
  REQUEST_STAGE,
  type Host,
  type ParsedTokenLimitError,
  type Plugin,
  type Session,
} from '@ctxhost/core';
import { createUnstatedLimitLearning, namesNoLimit, type UnstatedLimitLearning } from './unstated-limit-learning.js';
import { AutoCompactConfigSchema, backoffDelay, type AutoCompactConfig } from './config.js';
import {
  AUTO_COMPACT,
  fixEmptyMessages,
  largestOutputs,
  revertLastResponse,
  revertPointWithoutToolWork,
  summarizeSession,
  truncateOutputs,
  type StepBudget,
} from './recovery-steps.js';

export interface AutoCompactOptions {
  /** Overrides `hooks.anthropic-auto-compact.plan`. */
  plan?: boolean;
}

/** All of a session's recovery state: one entry, dropped on `session.deleted`. */
interface SessionState {
  pending: ParsedTokenLimitError | undefined;
  inProgress: boolean;
  /** A full cascade failed and no turn has succeeded since: do not loop. */
  exhausted: boolean;
  budget: StepBudget;
}

/** Summaries per attempt at most while each one gets the session at least 5% smaller. */
const MAX_SUMMARY_ROUNDS = 3;

type Step = 'aggressive truncation' | 'truncation' | 'empty-content fix' | 'revert' | 'summarize';

/**
 * Hook `anthropic-auto-compact`: on a token-limit error the session is marked
 * pending; on `session.idle` the recovery cascade runs (truncate → empty-fix →
 * revert → summarize), planned so it skips to the first step whose estimated
 * result fits, then asks the session's driver to resend, with backoff.
 * Lossless: truncated outputs stay in the store.
 */
export function createAutoCompactPlugin(options: AutoCompactOptions = {}): Plugin {
  return {
    name: AUTO_COMPACT,
    apply(host) {
      const config = {
        ...readHookSection(host.config, AUTO_COMPACT, AutoCompactConfigSchema),
        ...(options.plan === undefined ? {} : { plan: options.plan }),
      };
      const states = new Map<string, SessionState>();
      const learning = createUnstatedLimitLearning(host);
      const stateOf = (id: string): SessionState => {
        let state = states.get(id);
        if (state === undefined) {
          state = {
            pending: undefined,
            inProgress: false,
            exhausted: false,
            budget: { truncated: new Set(), reverts: 0, emptyFixes: 0 },
          };
          states.set(id, state);
        }
        return state;
      };

      host.hooks.sessionError.tapPromise(AUTO_COMPACT, async ({ sessionId, error, raw }) => {
        const parsed = parseTokenLimitError(error) ?? parseTokenLimitError(raw);
        if (parsed === null) return;
        stateOf(sessionId).pending = parsed;
        if (namesNoLimit(parsed)) learning.rejected(await host.session(sessionId));
        await adoptStatedLimit(host, sessionId, parsed);
      });
      host.hooks.beforeRequest.tapPromise({ name: AUTO_COMPACT, stage: REQUEST_STAGE.caching + 1 }, async (request) => {
        learning.sentTo(request.sessionId, request.model);
        return request;
      });
      host.hooks.messageUpdated.tapPromise(AUTO_COMPACT, async ({ sessionId, message, usage }) => {
        if (message.role !== 'assistant' || usage === undefined) return;
        const state = states.get(sessionId);
        if (state !== undefined) state.exhausted = false;
        // The API's count of the prompt it just answered.
        const answered = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
        if (answered > 0) await learning.fitted(await host.session(sessionId), answered);
      });
      host.hooks.sessionIdle.tapPromise(AUTO_COMPACT, async ({ sessionId, signal: caller }) => {
        const state = states.get(sessionId);
        if (state?.pending === undefined || state.inProgress) return;
        if (state.exhausted) {
          state.pending = undefined;
          return;
        }
        state.inProgress = true;
        try {
          await host.tasks.run(AUTO_COMPACT, sessionId, async (task) => {
            // The caller's abort (the turn's signal) stops the cascade at once, its backoff included.
            const signal = caller === undefined ? task : AbortSignal.any([task, caller]);
            try {
              await recover(host, config, sessionId, state, learning, signal);
            } catch (error) {
              // Cancelled (session deleted, host disposed): whatever the aborted call threw, it is not a failure.
              if (!signal.aborted) throw error;
            }
          });
        } catch (error) {
          if (!isAbortError(error)) throw error;
        } finally {
          state.inProgress = false;
        }
      });
      host.hooks.sessionDeleted.tapPromise(AUTO_COMPACT, async ({ sessionId }) => {
        states.delete(sessionId);
        learning.forget(sessionId);
      });
    },
  };
}

/**
 * The learned window: an overflow that states the API's real limit, below the window the session
 * believed in (a 200k model that stops at 180k, a gateway that serves less), becomes the session's
 * window from then on, so thresholds and hygiene act on the real one and the same overflow is not hit
 * again. Said once per session (each later adoption is a further lowering, said again).
 */
async function adoptStatedLimit(host: Host, sessionId: string, parsed: ParsedTokenLimitError): Promise<void> {
  if (parsed.maxTokens === undefined || parsed.kind === 'request_too_large' || parsed.kind === 'non_empty_content')
    return;
  const session = await host.session(sessionId);
  const believed = contextWindowOf(session, host.config);
  if (believed !== undefined && parsed.maxTokens >= believed) return;
  session.contextWindow = parsed.maxTokens;
  await host.toast({
    sessionId,
    level: 'info',
    title: 'Context window learned',
    text: `The API stopped this session at ${formatTokens(parsed.maxTokens)} tokens${believed === undefined ? '' : `, below the ${formatTokens(believed)} it was configured with`}; ctxhost uses ${formatTokens(parsed.maxTokens)} as its window from now on.`,
    source: AUTO_COMPACT,
  });
}

async function recover(
  host: Host,
  config: AutoCompactConfig,
  sessionId: string,
  state: SessionState,
  learning: UnstatedLimitLearning,
  signal: AbortSignal,
): Promise<void> {
  const session = await host.session(sessionId);
  const tried: Step[] = [];
  let lastError: ParsedTokenLimitError | undefined;
  // The walk takes one step per attempt and truncates on every attempt while outputs are left (oh-my-opencode's
  // order): its attempts are the truncations the session allows, then empty-fix, revert and summarize.
  const maxAttempts = config.plan
    ? config.max_retry_attempts
    : config.max_truncate_attempts + WALK_STEPS_AFTER_TRUNCATION;
  let allowed = maxAttempts;
  for (let attempt = 0; attempt < allowed && state.pending !== undefined; attempt++) {
    const error = state.pending;
    lastError = error;
    state.pending = undefined;
    const before = session.promptSize().tokens;
    // The steps hold the session's lock, so no turn runs while they read and rewrite what the model sees.
    const steps = await session.exclusive(async () =>
      signal.aborted ? [] : takeSteps(host, config, session, state, error, tried, signal),
    );
    if (signal.aborted) return;
    if (steps.length === 0) break;
    tried.push(...steps);
    const sent = session.promptSize().tokens;
    await host.tasks.delay(backoffDelay(attempt, config), signal);
    const handled = await host.hooks.resend.promise({
      sessionId,
      reason: `${AUTO_COMPACT}: ${steps.join(', ')}`,
      signal,
    });
    if (state.pending !== undefined) {
      if (attempt + 1 === allowed && probesFurther(error, before, session.promptSize().tokens, allowed - maxAttempts))
        allowed++;
      continue;
    }
    // Answered (a driver that appends the reply said so already, in the API's count): the probe's bound is kept.
    if (handled === true) await learning.fitted(session, sent);
    const text =
      handled === true
        ? `Recovered after ${tried.join(' → ')}; the session answered again.`
        : `Made room with ${tried.join(' → ')}; send the last message again to continue.`;
    await host.toast({ sessionId, level: 'success', title: 'Session recovered', text, source: AUTO_COMPACT });
    state.budget.truncated.clear();
    state.budget.emptyFixes = 0;
    return;
  }
  state.pending = undefined;
  state.exhausted = true;
  const size = session.promptSize().tokens;
  const tooLarge = messageLargerThanWindow(host, session, lastError);
  const mustStay = tooLarge === undefined ? whatMustStay(host, session, lastError) : undefined;
  const after = `after ${tried.length === 0 ? 'finding nothing to shorten' : tried.join(' → ')}`;
  await host.toast({
    sessionId,
    level: 'error',
    title: 'Manual intervention needed',
    text:
      mustStay !== undefined
        ? `What must stay does not fit: ${inWords(mustStay.parts)} ${mustStay.parts.length === 1 ? 'takes' : 'take'} about ${formatTokens(mustStay.tokens)} tokens of the API's ${formatTokens(mustStay.window)}-token limit, leaving no room for the rest and the reply (the context is still over the limit ${after}, about ${formatTokens(size)} tokens estimated). Shorten the system prompt or the last message, or use a model with a larger window. ctxhost will not retry this overflow again until a turn succeeds.`
        : tooLarge === undefined
          ? `The context is still over the model's limit ${after} (about ${formatTokens(size)} tokens estimated). Start a new session with a summary, remove large files from the conversation, or raise model.context_length if the model allows more. ctxhost will not retry this overflow again until a turn succeeds.`
          : `A single ${tooLarge.role} message (${tooLarge.id}) is about ${formatTokens(tooLarge.tokens)} tokens by itself, larger than the model's whole window of ${formatTokens(tooLarge.window)} tokens, so no compaction can make the request fit (the context is still over the limit ${after}). Shorten or split that message, or start a new session without it. ctxhost will not retry this overflow again until a turn succeeds.`,
    source: AUTO_COMPACT,
  });
}

/**
 * What a recovery can never remove: the system prompt and the newest user turn. When they alone take
 * 85% of the window or more (the reply needs the rest), no compaction can help; named with their sizes.
 */
function whatMustStay(
  host: Host,
  session: Session,
  error: ParsedTokenLimitError | undefined,
): { parts: string[]; tokens: number; window: number } | undefined {
  const window = error?.maxTokens ?? contextWindowOf(session, host.config);
  if (window === undefined) return undefined;
  const messages = session.messages();
  const system = host.counter.countAll(messages.filter((message) => message.role === 'system'));
  const newestUser = messages.findLast(
    (message) => message.role === 'user' && message.parts.some((part) => part.type === 'text'),
  );
  const user = newestUser === undefined ? 0 : host.counter.count(newestUser);
  const estimate = session.promptSize().tokens;
  const ratio = error?.currentTokens !== undefined && estimate > 0 ? error.currentTokens / estimate : 1;
  // Up to ESTIMATE_DRIFT, the API's count over the estimate is the estimator's drift, spread over what was counted; past it,
  // the request carried what the session does not hold (opencode adds its own system prompt and tool definitions).
  const scale = ratio <= ESTIMATE_DRIFT ? Math.max(ratio, 1) : 1;
  const unseen = ratio > ESTIMATE_DRIFT ? error!.currentTokens! - estimate : 0;
  const tokens = Math.round((system + user) * scale) + unseen;
  if (tokens < window * 0.85) return undefined;
  const parts = [
    ...(system > 0 ? [`the system prompt (about ${formatTokens(Math.round(system * scale))} tokens)`] : []),
    ...(user > 0 ? [`the newest user turn (about ${formatTokens(Math.round(user * scale))} tokens)`] : []),
    ...(unseen > 0
      ? [
          `what the request carried beside the conversation (the agent's own system prompt and tool definitions, about ${formatTokens(unseen)} tokens)`,
        ]
      : []),
  ];
  return { parts, tokens, window };
}

/** A list as a sentence says it: `a`, `a and b`, `a, b and c`. */
function inWords(items: readonly string[]): string {
  return items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** How far the API's count of a prompt may exceed ctxhost's estimate of it and still be the estimator's drift. */
const ESTIMATE_DRIFT = 1.5;

/** The largest message still over the whole window by itself once the cascade has done what it can (tool outputs are truncated first), if any. */
function messageLargerThanWindow(
  host: Host,
  session: Session,
  error: ParsedTokenLimitError | undefined,
): { id: string; role: string; tokens: number; window: number } | undefined {
  const window = error?.maxTokens ?? contextWindowOf(session, host.config);
  if (window === undefined) return undefined;
  let largest: { id: string; role: string; tokens: number; window: number } | undefined;
  for (const message of session.messages()) {
    const tokens = host.counter.count(message);
    if (tokens > window && tokens > (largest?.tokens ?? 0))
      largest = { id: message.id, role: message.role, tokens, window };
  }
  return largest;
}

/** How far below the last rejected prompt a later attempt aims when the API never named its limit: half. */
const UNSTATED_LIMIT_BACKOFF = 0.5;

/** Attempts an overflow that names no limit may take beyond `max_retry_attempts` (each one halves the prompt at least: 2^-8). */
const MAX_UNSTATED_LIMIT_PROBES = 8;

/** A step that leaves the prompt above this share of what it was made no progress worth another probe. */
const PROBE_PROGRESS = 0.9;

/**
 * Whether a re-send rejected again by an overflow that names no limit earns one more attempt: the limit is
 * only known to be below each rejected prompt, so the cascade halves its aim until the prompt fits, while
 * its steps still make the prompt clearly smaller (what must stay caps that) and at most
 * `MAX_UNSTATED_LIMIT_PROBES` times. A stated limit is aimed at directly and needs no probing.
 */
function probesFurther(error: ParsedTokenLimitError, before: number, after: number, probes: number): boolean {
  if (error.maxTokens !== undefined || error.kind === 'request_too_large' || error.kind === 'non_empty_content')
    return false;
  return probes < MAX_UNSTATED_LIMIT_PROBES && after <= before * PROBE_PROGRESS;
}

/**
 * The window to plan with when the overflow names no limit (OpenAI's Responses API, a bare "prompt is too long",
 * a window stop): the prompt the API just rejected is itself an upper bound, whatever window is configured. A
 * later attempt of the same incident, whose smaller prompt was rejected too, aims well below it.
 */
function unstatedLimitBound(configured: number | undefined, rejected: number, tried: readonly Step[]): number {
  const bound = tried.length === 0 ? rejected : Math.floor(rejected * UNSTATED_LIMIT_BACKOFF);
  return Math.min(configured ?? bound, bound);
}

/** Chooses and applies the steps for one attempt: planned (skip to what is enough) or oh-my-opencode's walk (one step per retry). */
async function takeSteps(
  host: Host,
  config: AutoCompactConfig,
  session: Session,
  state: SessionState,
  error: ParsedTokenLimitError,
  tried: readonly Step[],
  signal: AbortSignal,
): Promise<Step[]> {
  if (error.kind === 'non_empty_content') {
    if (state.budget.emptyFixes >= config.max_empty_fix_attempts) return [];
    state.budget.emptyFixes++;
    return (await fixEmptyMessages(session)) > 0 ? ['empty-content fix'] : [];
  }
  const estimate = session.promptSize().tokens;
  const scale = error.currentTokens !== undefined && estimate > 0 ? error.currentTokens / estimate : 1;
  const window = error.maxTokens ?? unstatedLimitBound(contextWindowOf(session, host.config), estimate, tried);
  const target = Math.floor((window * config.headroom) / Math.max(scale, 0.01));
  if (error.kind === 'request_too_large')
    return (await truncateOutputs(
      host,
      session,
      state.budget,
      config,
      Math.ceil(estimate / 2),
      config.max_truncate_attempts,
    )) > 0
      ? ['truncation']
      : [];
  return config.plan
    ? plannedSteps(host, config, session, state, estimate, target, window, tried, signal)
    : walkStep(host, config, session, state, estimate, target, window, tried, signal);
}

async function plannedSteps(
  host: Host,
  config: AutoCompactConfig,
  session: Session,
  state: SessionState,
  estimate: number,
  target: number,
  window: number,
  tried: readonly Step[],
  signal: AbortSignal,
): Promise<Step[]> {
  const need = Math.max(1, estimate - target);
  if (host.config.experimental.aggressiveTruncation) {
    const cut = Math.max(need, estimate - Math.floor((target * config.target_token_ratio) / config.headroom));
    if (
      (await truncateOutputs(host, session, state.budget, config, cut, config.max_truncate_attempts)) > 0 &&
      session.promptSize().tokens <= target
    )
      return ['aggressive truncation'];
  }
  const truncatable = largestOutputs(host, session, state.budget, config.min_output_size)
    .slice(0, config.max_truncate_attempts - state.budget.truncated.size)
    .reduce((sum, output) => sum + output.tokens, 0);
  if (truncatable >= need) {
    await truncateOutputs(host, session, state.budget, config, need, config.max_truncate_attempts);
    return ['truncation'];
  }
  // Once a planned step fell short, the turn is not re-run: redoing the work that overflowed tends to overflow again,
  // and with the attempts left the summary, which aims at a size, is the step that reliably fits. Nor is a turn whose
  // tools already ran: reverting it throws that work away and has the agent run every call again (a long agentic turn
  // is dozens of calls, some with side effects); the summary keeps what they found.
  const point = tried.length > 0 ? undefined : revertPointWithoutToolWork(session);
  const revertable = point === undefined ? 0 : host.counter.countAll(session.messages().slice(point + 1));
  if (revertable >= need && (await revertLastResponse(session, state.budget, config))) return ['revert'];
  // Escalate until the target is met: summarize (the engine's recovery path: a size to reach, a short tail, chunked or
  // extractive summary), again while each round makes progress, then truncate what is still too big in the kept tail.
  const steps: Step[] = [];
  for (let round = 0; round < MAX_SUMMARY_ROUNDS && session.promptSize().tokens > target; round++) {
    const before = session.promptSize().tokens;
    if (!(await summarizeSession(host, session, window, target, signal))) break;
    if (!steps.includes('summarize')) steps.push('summarize');
    if (session.promptSize().tokens > before * 0.95) break;
  }
  const left = session.promptSize().tokens - target;
  if (left > 0 && (await truncateOutputs(host, session, state.budget, config, left, config.max_truncate_attempts)) > 0)
    steps.push('truncation');
  return steps;
}

/** The walk's attempts beyond its truncations: revert, summarize, and one more to find nothing left. */
const WALK_STEPS_AFTER_TRUNCATION = 3;

/**
 * oh-my-opencode's recovery order, one step per retry: while an output can be truncated, truncate — the largest
 * one, or with aggressive truncation the largest first until the prompt is at `target_token_ratio` (half) of
 * the limit — then revert, then summarize.
 */
async function walkStep(
  host: Host,
  config: AutoCompactConfig,
  session: Session,
  state: SessionState,
  estimate: number,
  target: number,
  window: number,
  tried: readonly Step[],
  signal: AbortSignal,
): Promise<Step[]> {
  const aggressive = host.config.experimental.aggressiveTruncation;
  const toRatio = Math.max(1, estimate - Math.floor((target * config.target_token_ratio) / config.headroom));
  if (
    (await truncateOutputs(
      host,
      session,
      state.budget,
      config,
      aggressive ? toRatio : 1,
      aggressive ? config.max_truncate_attempts : 1,
    )) > 0
  )
    return ['truncation'];
  if (!tried.includes('revert') && (await revertLastResponse(session, state.budget, config))) return ['revert'];
  if (
    !tried.includes('summarize') &&
    (await summarizeSession(host, session, window, Math.min(target, estimate), signal))
  )
    return ['summarize'];
  return [];
}
