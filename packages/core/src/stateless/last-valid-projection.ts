import { createPromptOriginals, type PromptOriginals } from '../host/prompt-originals.js';
import type { Message } from '../model/message.js';
import type { CompactionCache } from './compaction-cache.js';
import { introducedProblems } from './commit-request.js';
import { listOf, type PromptChain } from './prompt-chain.js';

/** What to send when ctxhost's machinery failed for a prompt whose prefix has a valid stored compaction. */
export interface LastValidProjection<S, P> {
  messages: readonly Message[];
  originals: PromptOriginals<S, P>;
}

/**
 * The cached compaction of the prompt's longest covered prefix followed by the caller's messages after
 * it: what this prompt's conversation was last sent as, plus what is new, rather than the whole raw
 * prompt (which may no longer fit). Undefined when no entry covers a prefix, the cache cannot be read,
 * or the result would have a shape problem the caller's prompt does not.
 */
export async function lastValidProjection<S, P>(
  cache: CompactionCache,
  chain: PromptChain<S, P>,
  settings: string,
): Promise<LastValidProjection<S, P> | undefined> {
  const cached = await cache.best(chain.hashes, settings).catch(() => undefined);
  if (cached === undefined) return undefined;
  const history = listOf(chain.messages);
  const messages = [...cached.projection, ...history.slice(cached.coveredLength)];
  if (introducedProblems(messages, chain).length > 0) return undefined;
  const originals = createPromptOriginals<S, P>();
  history.forEach((message, index) =>
    originals.remember(message, chain.sources.at(index)!, chain.items.at(index)!.sourceParts),
  );
  return { messages, originals };
}
