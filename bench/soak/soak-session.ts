import type { Agent, TurnOutcome } from '@ctxhost/anthropic';
import { CtxhostError, type Host, type Message, type Part, type ProviderErrorKind, type Session } from '@ctxhost/core';
import type { CorpusTranscript } from './soak-corpus.js';

/** What one session does, drawn up front from the run's random seed (so a run repeats whatever the interleaving). */
export interface SessionPlan {
  index: number;
  sessionId: string;
  transcript: CorpusTranscript;
  /** How many of the transcript's messages the session starts with. */
  prefixLength: number;
  /** The agent to drive it (window, streaming, whether the host is told a window larger than the API's). */
  agentKey: string;
  /** The window the host is told (what the agent's model says), set before the prefix is loaded. */
  contextWindow: number;
  /** User turns sent after the prefix. */
  turns: number;
}

export type SessionResult =
  | { status: 'completed'; partsChecked: number; unretrievable: string[] }
  /** Ended with an error that names why: a ProviderError kind or a CtxhostError code, and its message. */
  | { status: 'error'; reason: string; partsChecked: number; unretrievable: string[] }
  /** Anything else: a bug (an error that is neither a ctxhost nor a provider error). */
  | { status: 'unclear'; reason: string; partsChecked: number; unretrievable: string[] };

/**
 * Errors a real driver retries: the API or the network was busy, the reply was
 * empty, or an overflow whose recovery made room but whose re-send failed
 * (auto-compact then asks to send again; an exhausted overflow fails again fast).
 */
const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set([
  'rate_limited',
  'overloaded',
  'network',
  'server',
  'context_overflow',
  'output_budget_overflow',
  'request_too_large',
]);

export interface DriveOptions {
  host: Host;
  agent: Agent;
  /** Driver-level retries of a transient error (on top of the SDK's own). */
  retries: number;
}

/** Loads the prefix, sends the plan's turns, checks that every part ever stored is retrievable, then deletes the session. */
export async function driveSession(plan: SessionPlan, options: DriveOptions): Promise<SessionResult> {
  const { host } = options;
  let outcome: { status: 'completed' } | { status: 'error' | 'unclear'; reason: string } = { status: 'completed' };
  let session: Session | undefined;
  try {
    session = await host.session(plan.sessionId);
    session.contextWindow = plan.contextWindow;
    for (const message of plan.transcript.messages.slice(0, plan.prefixLength)) await session.append(message);
    for (let turn = 1; turn <= plan.turns && outcome.status === 'completed'; turn++) {
      const reason = await sendTurn(
        session,
        options,
        `Turn ${turn}: check the build log of src/module${turn}.ts and fix what fails`,
      );
      if (reason !== undefined) outcome = { status: 'error', reason };
    }
  } catch (error) {
    outcome = CtxhostError.isInstance(error)
      ? { status: 'error', reason: `${error.code}: ${error.message}` }
      : { status: 'unclear', reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  const { partsChecked, unretrievable } =
    session === undefined ? { partsChecked: 0, unretrievable: [] } : await checkOriginals(session);
  await session?.delete().catch(() => undefined);
  return { ...outcome, partsChecked, unretrievable };
}

/** One user turn with a driver's retries; returns why it failed, or undefined when the session answered. */
async function sendTurn(session: Session, options: DriveOptions, text: string): Promise<string | undefined> {
  const before = session.history().length;
  let outcome: TurnOutcome = await options.agent.send(session.id, text);
  for (let retry = 0; ; retry++) {
    if (outcome.status === 'done') return undefined;
    if (outcome.status === 'max_turns') return `max_turns: the model called tools ${outcome.turns} times in a row`;
    // A recovery (auto-compact) may have re-sent the session already and got an answer.
    if (answeredSince(session, before)) return undefined;
    if (!RETRYABLE.has(outcome.error.kind) || retry >= options.retries)
      return `${outcome.error.kind}: ${outcome.error.message}`;
    await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** retry));
    outcome = await options.agent.retry(session.id);
  }
}

function answeredSince(session: Session, historyLength: number): boolean {
  const last = session.messages().at(-1);
  return (
    last?.role === 'assistant' &&
    session
      .history()
      .slice(historyLength)
      .some((message) => message.id === last.id)
  );
}

/**
 * Nothing is lost: every part the session ever stored (history and what the
 * model sees, summaries included) must come back from `session.original`, and
 * the original of a shortened part must not be the shortened version.
 */
async function checkOriginals(session: Session): Promise<{ partsChecked: number; unretrievable: string[] }> {
  const parts = new Map<string, Part>();
  const collect = (messages: readonly Message[]) =>
    messages.forEach((message) => message.parts.forEach((part) => parts.set(part.id, part)));
  collect(session.history());
  collect(session.messages());
  const unretrievable: string[] = [];
  for (const [partId, part] of parts) {
    const original = await session.original(partId);
    const shortened = 'compacted' in part && part.compacted !== undefined;
    if (original === undefined || (shortened && 'compacted' in original && original.compacted !== undefined))
      unretrievable.push(partId);
  }
  return { partsChecked: parts.size, unretrievable };
}
