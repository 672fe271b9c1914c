import {
  redactMessages,
  type Message,
  type SecretRedactor,
  type SummarySource,
  type Summarizer,
  type TokenCounter,
} from '@ctxhost/core';
import { extractiveSummary } from './extractive-summary.js';
import type { SummarizerCooldown } from './summarizer-cooldown.js';
import { summaryInstructions } from './summary-template.js';

export interface MiddleSummary {
  text: string;
  source: Extract<SummarySource, 'model' | 'chunked' | 'extractive'>;
  notes: string[];
  /** Whether the summarizer was called and failed (the extractive summary took its place). */
  failed?: boolean;
}

export interface SummarizeMiddleOptions {
  summarizer: Summarizer | undefined;
  counter: TokenCounter;
  budgetTokens: number;
  previousSummary: string | undefined;
  /** Applied to the span before the summarizer sees it, and to every summary. */
  redactor?: SecretRedactor;
  cooldown?: SummarizerCooldown;
  /** The newest user request, named in the update instruction as the one open ask. */
  currentRequest?: string;
  /** The newest request is in the protected tail, verbatim after the summary: the extractive summary points to it instead of repeating it. */
  currentRequestKept?: boolean;
  /** A manual compaction's focus and extra instructions (`compact()`, `compaction.before`). */
  focus?: string;
  instructions?: readonly string[];
  signal?: AbortSignal;
}

const KEPT = { kept: true } as const;

/** Share of the summarizer's window kept free for the instructions, the running summary, the reply and estimation error. */
const WINDOW_MARGIN = 0.1;

/**
 * Phase 3, never silently lossy: the summarizer in one call when the middle
 * fits its window; piece by piece when it does not (each piece updates the
 * running summary, which merges them); an extractive summary when the
 * summarizer fails, rests after a failure, or there is none. Secrets are
 * redacted on the way in and on the way out. The result says which path was taken.
 */
export async function summarizeMiddle(
  middle: readonly Message[],
  options: SummarizeMiddleOptions,
): Promise<MiddleSummary> {
  const redact = (text: string) => options.redactor?.redactText(text) ?? text;
  const span = options.redactor === undefined ? [...middle] : redactMessages(middle, options.redactor);
  const previousSummary = options.previousSummary === undefined ? undefined : redact(options.previousSummary);
  const steered =
    options.focus !== undefined || (options.instructions?.length ?? 0) > 0
      ? ['the extractive summary cannot follow a focus or instructions: they were not applied']
      : [];
  const fallback = (why: string, failed = false): MiddleSummary => ({
    text: redact(
      extractiveSummary(span, previousSummary, options.currentRequestKept === true ? KEPT : options.currentRequest),
    ),
    source: 'extractive',
    notes: [why, ...steered],
    ...(failed ? { failed } : {}),
  });
  const summarizer = options.summarizer;
  if (summarizer === undefined) return fallback('no summarizer configured: extractive summary');
  const resting = options.cooldown?.resting();
  if (resting !== undefined) return fallback(`summarizer ${summarizer.name} ${resting}: extractive summary`);
  const { pieces, running } = planPieces(span, previousSummary, summarizer.maxInputTokens, options);
  try {
    let summary = running;
    for (const piece of pieces) {
      const text = await summarizer.summarize({
        messages: piece,
        instructions: summaryInstructions(
          options.budgetTokens,
          summary !== undefined,
          options.currentRequest === undefined ? undefined : redact(options.currentRequest),
          steering(options),
        ),
        maxOutputTokens: options.budgetTokens,
        ...(summary === undefined ? {} : { previousSummary: summary }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      if (text.trim().length === 0) throw new Error('the summarizer returned an empty summary');
      summary = redact(text.trim());
    }
    options.cooldown?.succeeded();
    const notes =
      pieces.length > 1
        ? [`the middle was larger than the summarizer's window: summarized in ${pieces.length} pieces`]
        : [];
    return { text: summary!, source: pieces.length > 1 ? 'chunked' : 'model', notes };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    options.cooldown?.failed();
    return fallback(
      `summarizer ${summarizer.name} failed (${error instanceof Error ? error.message : String(error)}): extractive summary`,
      true,
    );
  }
}

/** Below this share of the summarizer's window a piece is too small to be worth a call. */
const MIN_PIECE_SHARE = 0.25;

/**
 * The pieces the span is summarized in, and the running summary the first one
 * updates. A previous summary so large that it leaves the span next to no room
 * (an extractive one, or one written for a larger window) would make every
 * message a call of its own: it then joins the span as its first message, and
 * is summarized with it rather than carried whole into every call.
 */
function planPieces(
  span: Message[],
  previousSummary: string | undefined,
  window: number | undefined,
  options: SummarizeMiddleOptions,
): { pieces: Message[][]; running: string | undefined } {
  const room = pieceRoom(window, options, previousSummary);
  if (previousSummary === undefined || window === undefined || room === undefined || room >= window * MIN_PIECE_SHARE)
    return { pieces: splitToFit(span, options.counter, room), running: previousSummary };
  const carried: Message = {
    id: 'ctxhost-previous-summary',
    role: 'user',
    parts: [
      { id: 'ctxhost-previous-summary:text', type: 'text', text: `Summary of the turns before:\n${previousSummary}` },
    ],
  };
  return {
    pieces: splitToFit([carried, ...span], options.counter, pieceRoom(window, options, undefined)),
    running: undefined,
  };
}

/**
 * Tokens of span one call can take: the summarizer's window minus the
 * instructions, the running summary (at most the budget, or the previous
 * summary when larger), the reply and a margin. Undefined when the window is unknown.
 */
function pieceRoom(
  window: number | undefined,
  options: SummarizeMiddleOptions,
  previousSummary: string | undefined,
): number | undefined {
  if (window === undefined) return undefined;
  const instructions = options.counter.countText(
    summaryInstructions(options.budgetTokens, true, options.currentRequest, steering(options)),
  );
  const running = Math.max(
    options.budgetTokens,
    previousSummary === undefined ? 0 : options.counter.countText(previousSummary),
  );
  return Math.max(1, Math.floor(window * (1 - WINDOW_MARGIN) - instructions - running - options.budgetTokens));
}

function steering(options: SummarizeMiddleOptions): { focus?: string; instructions?: readonly string[] } {
  return {
    ...(options.focus === undefined ? {} : { focus: options.focus }),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  };
}

/** Pieces of whole messages that each fit `room` tokens; one piece when there is no limit. */
export function splitToFit(messages: readonly Message[], counter: TokenCounter, room: number | undefined): Message[][] {
  if (room === undefined) return [[...messages]];
  const pieces: Message[][] = [];
  let current: Message[] = [];
  let tokens = 0;
  for (const message of messages) {
    const size = counter.count(message);
    if (current.length > 0 && tokens + size > room) {
      pieces.push(current);
      current = [];
      tokens = 0;
    }
    current.push(message);
    tokens += size;
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}
