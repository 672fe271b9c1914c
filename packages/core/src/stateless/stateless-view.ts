import { randomUUID } from 'node:crypto';
import type { Host } from '../host/host.js';
import { createPromptOriginals } from '../host/prompt-originals.js';
import type { CompactionReport } from '../model/compaction-report.js';
import type { Message } from '../model/message.js';
import type { CachedProjection } from './compaction-cache.js';
import { listOf, type PromptChain } from './prompt-chain.js';
import type { StatelessView } from './view-pool.js';

/**
 * A new view of a prompt: an ephemeral session seeded with every caller message (no `message.updated`
 * per message, so a prompt handed over whole costs one pass) and, when the cache holds a compaction of
 * a prefix, that compaction followed by the messages after it.
 */
export async function openView<S, P>(
  host: Host,
  chain: PromptChain<S, P>,
  cached: CachedProjection | undefined,
  contextWindow: number | undefined,
  settings: string,
): Promise<StatelessView<S, P>> {
  const history = listOf(chain.messages);
  const projection = cached === undefined ? undefined : [...cached.projection, ...history.slice(cached.coveredLength)];
  const id = `stateless-${randomUUID()}`;
  const session = await host.ephemeralSession(id, { history, ...(projection === undefined ? {} : { projection }) });
  session.contextWindow = contextWindow;
  const seeded = session.messages();
  const originals = createPromptOriginals<S, P>();
  // By position, no entry per message: the renderer reads them in order.
  originals.seed({
    length: history.length,
    message: (index) => history[index]!,
    source: (index) => chain.sources.at(index)!,
    sourceParts: (index) => chain.items.at(index)!.sourceParts,
  });
  return {
    id,
    settings,
    session,
    hashes: listOf(chain.hashes),
    originals,
    entryLength: cached?.coveredLength ?? 0,
    entryGeneration: cached?.generation ?? 0,
    committed: { projection: seeded, length: seeded.length, callerMessages: history.length },
    busy: true,
    lastUsed: 0,
  };
}

/** Appends the prompt's messages the view does not have yet (each announced: O(new)), then adopts a newer cached compaction. */
export async function extendView<S, P>(
  view: StatelessView<S, P>,
  chain: PromptChain<S, P>,
  cached: CachedProjection | undefined,
): Promise<void> {
  for (let index = view.hashes.length; index < chain.length; index++) {
    const message = chain.messages.at(index)!;
    await view.session.append(message);
    view.hashes.push(chain.hashes.at(index)!);
    view.originals.remember(message, chain.sources.at(index)!, chain.items.at(index)!.sourceParts);
  }
  if (cached !== undefined && isNewer(cached, view)) await adoptProjection(view, chain, cached);
}

/** Replaces what the view's session sends with a cached compaction (another request's or another worker's) and what follows it. */
export async function adoptProjection<S, P>(
  view: StatelessView<S, P>,
  chain: PromptChain<S, P>,
  cached: CachedProjection,
): Promise<void> {
  const after: Message[] = [];
  for (let index = cached.coveredLength; index < view.hashes.length; index++) after.push(chain.messages.at(index)!);
  const projection = [...cached.projection, ...after];
  await view.session.applyCompaction(projection, adoptedReport(view.hashes.length, projection.length));
  view.entryLength = cached.coveredLength;
  view.entryGeneration = cached.generation;
  markCommitted(view);
}

/** Records that the cache knows the view's projection as it is now. */
export function markCommitted<S, P>(view: StatelessView<S, P>): void {
  const projection = view.session.messages();
  view.committed = { projection, length: projection.length, callerMessages: view.hashes.length };
}

/** Whether the view's projection is more than what the cache knows plus the caller messages appended since. */
export function changedSinceCommit<S, P>(view: StatelessView<S, P>): boolean {
  const projection = view.session.messages();
  const { committed } = view;
  return (
    projection !== committed.projection ||
    projection.length - committed.length !== view.hashes.length - committed.callerMessages
  );
}

/** A cached compaction of a longer prefix than the view holds, or a later generation of the same one. */
function isNewer<S, P>(cached: CachedProjection, view: StatelessView<S, P>): boolean {
  return (
    cached.coveredLength > view.entryLength ||
    (cached.coveredLength === view.entryLength && cached.generation > view.entryGeneration)
  );
}

function adoptedReport(messagesBefore: number, messagesAfter: number): CompactionReport {
  return {
    engine: 'stateless-cache',
    reason: 'manual',
    tokensBefore: 0,
    tokensAfter: 0,
    messagesBefore,
    messagesAfter,
    notes: ['adopted from the compaction cache'],
  };
}
