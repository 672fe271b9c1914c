import {
  estimateTokens,
  groupMessages,
  type Message,
  type MessageGroup,
  type SummarySource,
  type TokenCounter,
} from '@ctxhost/core';

/** A group as compaction sees it: the core group plus its state in this run. */
export interface CompactionGroup extends MessageGroup {
  /** Unique within the index. */
  readonly id: number;
  readonly excluded: boolean;
  /** Added by a strategy in this run (a summary or a collapsed tool line). */
  readonly inserted: boolean;
  /** For inserted groups: what produced the text. */
  readonly summarySource: SummarySource | undefined;
  /** True when the group's first message is from the user: it can open the conversation. */
  readonly leadsTurn: boolean;
}

/** Totals over the groups still included, kept up to date on every change (O(1) each). */
export interface CompactionTotals {
  tokens: number;
  messages: number;
  groups: number;
  /** User groups (turns). */
  turns: number;
  toolCallGroups: number;
  nonSystemMessages: number;
  nonSystemGroups: number;
}

/** What triggers and targets read: the included totals. */
export interface CompactionIndexView {
  readonly included: Readonly<CompactionTotals>;
}

export interface InsertSummaryOptions {
  /** The inserted group sits right before this one. */
  before: CompactionGroup;
  source: SummarySource;
  /** Count the group as this many tokens (a placeholder reserving room for a summary not written yet). */
  tokens?: number;
}

/**
 * A non-destructive index over a message list: groups, which of them are
 * excluded, and summary groups strategies inserted. The messages are never
 * mutated; `projection()` is what the model should see.
 */
export interface CompactionIndex extends CompactionIndexView {
  /** Totals before any change. */
  readonly original: Readonly<CompactionTotals>;
  readonly counter: TokenCounter | undefined;
  /** Every group (included or not, inserted ones at their place), oldest first. O(groups). */
  ordered(): CompactionGroup[];
  exclude(group: CompactionGroup): void;
  /** Undoes `exclude` (rollback). */
  include(group: CompactionGroup): void;
  insertSummary(message: Message, options: InsertSummaryOptions): CompactionGroup;
  /** Replaces an inserted group's message (a placeholder by the real summary), re-counting its tokens. */
  replaceInserted(group: CompactionGroup, message: Message): void;
  /** Removes an inserted group (rollback). */
  removeInserted(group: CompactionGroup): void;
  /** Groups excluded (originals and inserted), oldest first. */
  excludedGroups(): CompactionGroup[];
  /** Inserted groups still included, oldest first. */
  insertedGroups(): CompactionGroup[];
  /** The included messages, group by group. */
  projection(): Message[];
  tokensOf(message: Message): number;
}

interface IndexedGroup extends CompactionGroup {
  excluded: boolean;
  summarySource: SummarySource | undefined;
  /** The original group's position; inserted groups live in the slot of the group they precede. */
  slot: number;
  tokens: number;
  messages: Message[];
  messageCount: number;
  chars: number;
}

export interface CompactionIndexOptions {
  /** Cached per-message counts (`createTokenCounter()` from core); the core estimator when absent. */
  counter?: TokenCounter;
}

/** Builds the index: one linear pass (grouping and totals), counts taken from the counter's cache. */
export function createCompactionIndex(
  messages: readonly Message[],
  options: CompactionIndexOptions = {},
): CompactionIndex {
  const counter = options.counter;
  const groupOptions = counter === undefined ? {} : { counter };
  const slots: IndexedGroup[][] = groupMessages(messages, groupOptions).map((group, slot) => [
    toIndexed(group, slot, slot),
  ]);
  let nextId = slots.length;
  const included = emptyTotals();
  for (const [group] of slots) addTotals(included, group!, 1);
  const original = { ...included };

  function tokensOf(message: Message): number {
    return counter === undefined ? estimateTokens(message) : counter.count(message);
  }

  function ordered(): IndexedGroup[] {
    const list: IndexedGroup[] = [];
    for (const slot of slots) for (const group of slot) list.push(group);
    return list;
  }

  return {
    included,
    original,
    counter,
    tokensOf,
    ordered,
    exclude(group) {
      const indexed = group as IndexedGroup;
      if (indexed.excluded) return;
      indexed.excluded = true;
      addTotals(included, indexed, -1);
    },
    include(group) {
      const indexed = group as IndexedGroup;
      if (!indexed.excluded) return;
      indexed.excluded = false;
      addTotals(included, indexed, 1);
    },
    insertSummary(message, insertOptions) {
      const anchor = insertOptions.before as IndexedGroup;
      const slot = slots[anchor.slot]!;
      const group = toIndexed(
        summaryGroup(message, insertOptions.tokens ?? tokensOf(message)),
        anchor.slot,
        nextId++,
        true,
        insertOptions.source,
      );
      slot.splice(slot.indexOf(anchor), 0, group);
      addTotals(included, group, 1);
      return group;
    },
    replaceInserted(group, message) {
      const indexed = group as IndexedGroup;
      if (!indexed.excluded) addTotals(included, indexed, -1);
      const fresh = summaryGroup(message, tokensOf(message));
      indexed.messages = fresh.messages;
      indexed.tokens = fresh.tokens;
      indexed.chars = fresh.chars;
      indexed.summarySource = message.meta?.summary?.source ?? indexed.summarySource;
      if (!indexed.excluded) addTotals(included, indexed, 1);
    },
    removeInserted(group) {
      const indexed = group as IndexedGroup;
      const slot = slots[indexed.slot]!;
      const position = slot.indexOf(indexed);
      if (!indexed.inserted || position < 0) return;
      slot.splice(position, 1);
      if (!indexed.excluded) addTotals(included, indexed, -1);
    },
    excludedGroups: () => ordered().filter((group) => group.excluded),
    insertedGroups: () => ordered().filter((group) => group.inserted && !group.excluded),
    projection() {
      const projected: Message[] = [];
      for (const slot of slots)
        for (const group of slot) if (!group.excluded) for (const message of group.messages) projected.push(message);
      return projected;
    },
  };
}

function toIndexed(
  group: MessageGroup,
  slot: number,
  id: number,
  inserted = false,
  source?: SummarySource,
): IndexedGroup {
  const first = group.messages[0];
  // Listed, not spread: a spread of 100k groups costs more than the rest of a run.
  return {
    kind: group.kind,
    index: group.index,
    messageIndices: group.messageIndices,
    messages: group.messages,
    messageCount: group.messageCount,
    chars: group.chars,
    tokens: group.tokens,
    callIds: group.callIds,
    orphan: group.orphan,
    id,
    slot,
    excluded: false,
    inserted,
    summarySource: source,
    leadsTurn: first?.role === 'user' && (group.kind === 'user' || group.kind === 'summary'),
  };
}

function summaryGroup(message: Message, tokens: number): MessageGroup {
  const chars = message.parts.reduce((total, part) => total + (part.type === 'text' ? part.text.length : 0), 0);
  return {
    kind: 'summary',
    index: -1,
    messageIndices: [],
    messages: [message],
    messageCount: 1,
    chars,
    tokens,
    callIds: [],
    orphan: false,
  };
}

function emptyTotals(): CompactionTotals {
  return { tokens: 0, messages: 0, groups: 0, turns: 0, toolCallGroups: 0, nonSystemMessages: 0, nonSystemGroups: 0 };
}

function addTotals(totals: CompactionTotals, group: MessageGroup, sign: 1 | -1): void {
  totals.tokens += sign * group.tokens;
  totals.messages += sign * group.messageCount;
  totals.groups += sign;
  if (group.kind === 'user') totals.turns += sign;
  if (group.kind === 'tool_call') totals.toolCallGroups += sign;
  if (group.kind === 'system') return;
  totals.nonSystemMessages += sign * group.messageCount;
  totals.nonSystemGroups += sign;
}
