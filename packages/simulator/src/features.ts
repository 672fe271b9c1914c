import type { ModelLimits } from './simulator-options.js';
import type { AssistantTurn, MessagesRequest } from './wire.js';

/** What a feature knows about the request it acts on. */
export interface FeatureContext {
  requestId: string;
  model: string;
  /** The betas named in the request's `anthropic-beta` header. */
  betas: ReadonlySet<string>;
  limits: Required<ModelLimits>;
}

/**
 * A server-side behaviour switched on by a beta header — the hook point for
 * context editing and server compaction (issue #9), which are not built yet.
 * The simulator calls, for each active feature in order: `prepareRequest`
 * after validation and before counting, caching and answering (context editing
 * clears there); `finishTurn` on the assistant turn before it is sent (server
 * compaction adds its blocks there). `blockTypes` are extra content types the
 * validator accepts while the feature is active (blocks a feature asks clients
 * to send back).
 */
export interface SimulatorFeature {
  name: string;
  /** The `anthropic-beta` value that switches it on; without one it is always on. */
  beta?: string;
  blockTypes?: readonly string[];
  prepareRequest?(request: MessagesRequest, context: FeatureContext): MessagesRequest;
  finishTurn?(turn: AssistantTurn, context: FeatureContext): AssistantTurn;
}

/** The betas of an `anthropic-beta` header (comma-separated, possibly repeated). */
export function parseBetas(header: string | string[] | undefined): Set<string> {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return new Set(values.flatMap((value) => value.split(',')).map((beta) => beta.trim()).filter((beta) => beta.length > 0));
}

/** The features a request switches on, in their configured order. */
export function activeFeatures(features: readonly SimulatorFeature[], betas: ReadonlySet<string>): SimulatorFeature[] {
  return features.filter((feature) => feature.beta === undefined || betas.has(feature.beta));
}
