import type { ApiError } from '../wire/api-error.js';
import type { ModelLimits } from '../wire/model-limits.js';
import type { AssistantTurn, ContextEdit, MessagesRequest, WireUsage } from '../wire/wire.js';

/** What a feature knows about the request it acts on. */
export interface FeatureContext {
  requestId: string;
  model: string;
  /** The betas named in the request's `anthropic-beta` header. */
  betas: ReadonlySet<string>;
  limits: Required<ModelLimits>;
  /**
   * Top-level fields added to the response message (e.g. `context_management`).
   * Features of one request share it; the handler sends it with the message.
   */
  response: Record<string, unknown>;
  /** Per-request scratch space a feature keeps between its own calls (keyed by feature name). */
  state: Map<string, unknown>;
}

/**
 * A server-side behaviour switched on by a beta header: context editing and
 * server compaction (see context-editing.ts, server-compaction.ts). The
 * simulator calls, for each active feature in order: `prepareRequest` after
 * validation and before counting, caching and answering (context editing
 * clears there; compaction drops what a compaction block replaced);
 * `finishTurn` on the assistant turn before it is sent (server compaction
 * adds its block there); `finishUsage` on the usage (compaction's
 * `iterations`). `blockTypes` are extra content types the validator accepts
 * while the feature is active (blocks a feature asks clients to send back);
 * `editTypes` are the `context_management.edits[].type` values it handles.
 */
export interface SimulatorFeature {
  name: string;
  /** The `anthropic-beta` value that switches it on; without one it is always on. */
  beta?: string;
  blockTypes?: readonly string[];
  editTypes?: readonly string[];
  /** Checks one of its edits (`where` is e.g. `context_management.edits.0`); the first problem answers 400. */
  validateEdit?(edit: ContextEdit, where: string): ApiError | undefined;
  prepareRequest?(request: MessagesRequest, context: FeatureContext): MessagesRequest;
  finishTurn?(turn: AssistantTurn, context: FeatureContext): AssistantTurn;
  finishUsage?(usage: WireUsage, context: FeatureContext): WireUsage;
}

/** The betas of an `anthropic-beta` header (comma-separated, possibly repeated). */
export function parseBetas(header: string | string[] | undefined): Set<string> {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return new Set(
    values
      .flatMap((value) => value.split(','))
      .map((beta) => beta.trim())
      .filter((beta) => beta.length > 0),
  );
}

/** The features a request switches on, in their configured order. */
export function activeFeatures(features: readonly SimulatorFeature[], betas: ReadonlySet<string>): SimulatorFeature[] {
  return features.filter((feature) => feature.beta === undefined || betas.has(feature.beta));
}
