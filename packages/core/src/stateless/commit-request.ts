import type { Host } from '../host/host.js';
import type { Message } from '../model/message.js';
import type { ModelRequest } from '../model/model-client.js';
import { validateProjection, type ProjectionProblem } from '../model/validate-projection.js';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import type { CompactionCache } from './compaction-cache.js';
import { listOf, type PromptChain } from './prompt-chain.js';
import type { StatelessRequest } from './stateless-context.js';
import type { StatelessView } from './view-pool.js';
import { changedSinceCommit, markCommitted } from './stateless-view.js';

/**
 * Runs the host's request waterfall (engine, hygiene, preemptive notice, cache breakpoints) over the
 * view, and when the hooks changed what the model sees (a compaction, a notice, a shortened part),
 * checks the result and stores it in the cache under exactly the messages it replaces. When another
 * request got there first, its result is adopted and the waterfall runs again, so every worker sends
 * the same projection for the same prompt.
 */
export async function commitRequest<S, P>(
  host: Host,
  cache: CompactionCache,
  view: StatelessView<S, P>,
  chain: PromptChain<S, P>,
  settings: string,
  request: StatelessRequest,
): Promise<ModelRequest> {
  const session = view.session;
  const built = await waterfall(host, view, request);
  // Changed by the hooks just now, or by a recovery step before this rebuild.
  if (!changedSinceCommit(view)) return built;
  const after = session.messages();
  assertValidProjection(host, built.messages, chain);
  const length = view.hashes.length;
  // A further change of a prefix this view already stored (a recovery's next step) is its next generation.
  const generation = view.entryLength === length ? view.entryGeneration + 1 : 1;
  const stored = await cache.write(view.hashes, length, settings, generation, after);
  view.entryLength = length;
  view.entryGeneration = generation;
  if (stored.projection === undefined) {
    markCommitted(view);
    return built;
  }
  // Another request stored its projection of this prompt first: send that one, as every worker will.
  await session.applyCompaction(stored.projection, {
    engine: 'stateless-cache',
    reason: 'manual',
    tokensBefore: 0,
    tokensAfter: 0,
    messagesBefore: after.length,
    messagesAfter: stored.projection.length,
    notes: ['another request stored its compaction of this prompt first'],
  });
  markCommitted(view);
  return waterfall(host, view, request);
}

function waterfall<S, P>(host: Host, view: StatelessView<S, P>, request: StatelessRequest): Promise<ModelRequest> {
  return host.hooks.beforeRequest.promise(
    {
      sessionId: view.id,
      model: request.model,
      messages: view.session.messages(),
      ...(request.tools === undefined ? {} : { tools: request.tools }),
      maxTokens: request.maxOutputTokens,
    },
    {
      sessionId: view.id,
      contextWindow: view.session.contextWindow,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    },
  );
}

/**
 * Refuses a projection the API would reject for its shape (an assistant message first, a tool result
 * with no call, a call with no result, empty content) when the caller's own prompt does not have the
 * same problem: the hooks or the engine made it, so it is theirs to answer for, not the provider's.
 */
function assertValidProjection<S, P>(host: Host, messages: readonly Message[], chain: PromptChain<S, P>): void {
  const introduced = introducedProblems(messages, chain);
  if (introduced.length === 0) return;
  throw new CtxhostError(
    CORE_ERROR_CODES.projectionInvalid,
    `engine "${host.engine.name}" (or a request hook) produced a projection the API would reject, rule ${introduced[0]!.code}: ${introduced[0]!.message}; the request was sent as the caller wrote it. Fix the engine, or set context.engine to another one`,
    { plugin: host.engine.name },
  );
}

/** The shape problems of `messages` the caller's own prompt does not have. */
export function introducedProblems<S, P>(messages: readonly Message[], chain: PromptChain<S, P>): ProjectionProblem[] {
  const problems = validateProjection(messages);
  if (problems.length === 0) return [];
  const callers = new Set(validateProjection(listOf(chain.messages)).map(problemKey));
  return problems.filter((problem) => !callers.has(problemKey(problem)));
}

function problemKey(problem: ProjectionProblem): string {
  return `${problem.code}:${problem.callId ?? ''}`;
}
