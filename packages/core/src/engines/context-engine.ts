import type { CompactionReason, CompactionReport } from '../model/compaction-report.js';
import type { JsonValue, Message, Part } from '../model/message.js';
import type { ToolDefinition } from '../model/model-client.js';
import type { CtxhostConfig } from '../config/config-schema.js';
import type { Summarizer } from '../model/summarizer.js';
import type { TokenCounter, TokenSource } from '../tokens/token-counter.js';
import type { Usage } from '../model/usage.js';

/** What an engine sees when asked whether to compress. */
export interface EngineState {
  sessionId: string;
  promptTokens: number;
  tokenSource: TokenSource;
  /** The model's window; undefined when unknown (engines then do nothing and say so). */
  contextWindow: number | undefined;
  messageCount: number;
  /** The request's model, when the host knows it (prices for a policy that weighs dollars). */
  model?: string;
}

export interface CompressContext {
  sessionId: string;
  contextWindow: number;
  counter: TokenCounter;
  reason: CompactionReason;
  summarizer?: Summarizer;
  /** What the summary should concentrate on (a manual compaction's focus). */
  focus?: string;
  /** Extra instructions for the summarizer (from `compact()` and `compaction.before` taps). */
  instructions?: string[];
  /** Tokens the result should fit under, when the caller needs a specific size (recovery). */
  targetTokens?: number;
  /** Fetches an original part (before truncation) from the store. */
  original?: (partId: string) => Promise<Part | undefined>;
  signal?: AbortSignal;
}

export interface CompressResult {
  /** The new projection: what the model sees from now on. */
  messages: Message[];
  report: CompactionReport;
}

/** What an engine tool call can see: the session, and its full history (every message as appended). */
export interface EngineToolContext {
  sessionId: string;
  signal?: AbortSignal;
  history?: () => readonly Message[];
}

export interface EngineToolResult {
  output: string;
  isError?: boolean;
}

/**
 * A context engine decides when and how a session's projection is compressed.
 * The default is `compressor` (the 4-phase compressor).
 */
export interface ContextEngine {
  readonly name: string;
  shouldCompress(state: EngineState): boolean;
  compress(messages: readonly Message[], context: CompressContext): Promise<CompressResult>;
  /** Tools the agent can offer the model (for example `lcm_grep`). */
  tools?(): ToolDefinition[];
  callTool?(name: string, input: JsonValue, context: EngineToolContext): Promise<EngineToolResult>;
  /** Called with each reported usage, so an engine can track real prompt sizes. */
  updateFromUsage?(usage: Usage, sessionId: string): void;
}

export interface EngineFactoryOptions {
  config: CtxhostConfig;
  summarizer?: Summarizer;
}

export type ContextEngineFactory = (options: EngineFactoryOptions) => ContextEngine;
