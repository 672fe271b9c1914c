import type { Message as OpencodeMessage, Part as OpencodePart } from '@opencode-ai/sdk';

/** An opencode message with its parts, as `session.messages` and the message transform hand them. */
export interface OpencodeEntry {
  info: OpencodeMessage;
  parts: OpencodePart[];
}

/** One of opencode's compactions, read from its stored messages. */
export interface OpencodeCompactionSpan {
  /** The summary message opencode wrote. */
  summary: OpencodeEntry;
  /** What the model saw before it: the view as of the compaction marker. */
  before: OpencodeEntry[];
  /** The messages opencode kept in view after the summary (its recent tail), oldest first. */
  tail: OpencodeEntry[];
  /** The compaction marker's flags: opencode's own (`auto`), after an overflow. */
  auto: boolean;
  overflow: boolean;
}

/** A completed summary: an assistant message opencode marked `summary` that finished without an error. */
export function isCompletedSummary(entry: OpencodeEntry): boolean {
  const info = entry.info;
  return info.role === 'assistant' && info.summary === true && info.finish !== undefined && info.error === undefined;
}

/** The newest completed summary among `entries` (the messages of one session, oldest first). */
export function newestSummary(entries: readonly OpencodeEntry[]): OpencodeEntry | undefined {
  return entries.findLast(isCompletedSummary);
}

/**
 * The span one compaction replaced, from the session's messages (oldest
 * first, as `session.messages` returns them): what the model saw up to the
 * compaction marker (the summary's parent) and the tail opencode kept.
 * Undefined when the summary or its marker is not among them.
 */
export function compactionSpanOf(
  entries: readonly OpencodeEntry[],
  summaryId: string,
): OpencodeCompactionSpan | undefined {
  const summary = entries.find((entry) => entry.info.id === summaryId);
  const parentId = summary?.info.role === 'assistant' ? summary.info.parentID : undefined;
  if (summary === undefined || parentId === undefined) return undefined;
  const markerIndex = entries.findIndex((entry) => entry.info.id === parentId);
  if (markerIndex < 0) return undefined;
  const compaction = compactionPartOf(entries[markerIndex]!);
  const before = viewOf(entries.slice(0, markerIndex));
  const tailStart =
    compaction?.tailStartId === undefined ? -1 : before.findIndex(({ info }) => info.id === compaction.tailStartId);
  return {
    summary,
    before,
    tail: tailStart < 0 ? [] : before.slice(tailStart).filter((entry) => !isCompactionMarker(entry)),
    auto: compaction?.auto ?? false,
    overflow: compaction?.overflow ?? false,
  };
}

/**
 * What opencode sends the model from these messages (its `filterCompacted`):
 * everything since the newest completed summary — its marker, the summary, the
 * tail it kept, then what came after — or all of them when none was written.
 */
export function viewOf(entries: readonly OpencodeEntry[]): OpencodeEntry[] {
  const summaryIndex = entries.findLastIndex(isCompletedSummary);
  if (summaryIndex < 0) return entries.slice();
  const summary = entries[summaryIndex]!;
  const markerIndex = entries.findIndex((entry) => entry.info.id === (summary.info as { parentID?: string }).parentID);
  if (markerIndex < 0) return entries.slice(summaryIndex);
  const tailStartId = compactionPartOf(entries[markerIndex]!)?.tailStartId;
  const tailIndex = tailStartId === undefined ? -1 : entries.findIndex(({ info }) => info.id === tailStartId);
  const tail = tailIndex >= 0 && tailIndex < markerIndex ? entries.slice(tailIndex, markerIndex) : [];
  return [entries[markerIndex]!, summary, ...tail, ...entries.slice(summaryIndex + 1)];
}

function isCompactionMarker(entry: OpencodeEntry): boolean {
  return entry.info.role === 'user' && entry.parts.some((part) => part.type === 'compaction');
}

/** opencode 1.18 stores the kept tail's first message and the overflow flag on the compaction part (the v1 types lack them). */
function compactionPartOf(
  entry: OpencodeEntry,
): { auto: boolean; overflow: boolean; tailStartId: string | undefined } | undefined {
  const part = entry.parts.find((candidate) => candidate.type === 'compaction');
  if (part === undefined) return undefined;
  const extra = part as { auto?: unknown; overflow?: unknown; tail_start_id?: unknown };
  return {
    auto: extra.auto === true,
    overflow: extra.overflow === true,
    tailStartId: typeof extra.tail_start_id === 'string' ? extra.tail_start_id : undefined,
  };
}
