import { estimateTokens } from './estimate-tokens.js';
import { isSummaryMessage, type Message } from '../model/message.js';
import { messageChars } from '../model/message-chars.js';
import type { MessageGroup, MessageGroupKind } from '../model/message-group.js';
import type { TokenCounter } from './token-counter.js';

export interface GroupMessagesOptions {
  /** Counts each message's tokens (cached); `estimateTokens` when absent. */
  counter?: TokenCounter;
}

/**
 * Splits a message list into the groups compaction treats as atoms.
 *
 * A `tool_call` group is an assistant message with tool calls plus every later
 * message whose tool results answer those call ids, wherever they sit (approval
 * or user messages in between, results split over several messages). A message
 * answering calls of two assistant messages joins them into one group. Groups
 * are ordered by their first message index, and each keeps its messages in
 * ascending order, so when results are adjacent to their call, concatenating the
 * groups gives back the original list; when they are not, the group pulls its
 * results forward, before the messages that sat between.
 *
 * Orphans are reported, never merged elsewhere: a call without a result, a
 * result without an earlier call, or a call id used by two calls (ambiguous: no
 * guess is made) sets `orphan: true`. A message whose results answer no known
 * call forms its own `tool_call` group with `orphan: true`.
 *
 * Linear in the number of messages and parts.
 */
export function groupMessages(messages: readonly Message[], options: GroupMessagesOptions = {}): MessageGroup[] {
  const duplicateCallIds = findDuplicateCallIds(messages);
  const links = linkMessages(messages, duplicateCallIds);
  return buildGroups(messages, links, options.counter);
}

function findDuplicateCallIds(messages: readonly Message[]): Set<string> {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      if (seen.has(part.callId)) duplicates.add(part.callId);
      seen.add(part.callId);
    }
  }
  return duplicates;
}

interface Links {
  /** Union-find parent: each message points toward its group's first message. */
  parent: Int32Array;
  orphan: Uint8Array;
  kind: MessageGroupKind[];
  callIds: string[][];
}

function linkMessages(messages: readonly Message[], duplicateCallIds: ReadonlySet<string>): Links {
  const parent = new Int32Array(messages.length);
  const links: Links = { parent, orphan: new Uint8Array(messages.length), kind: [], callIds: [] };
  const ownerOfCall = new Map<string, number>();
  const answered = new Set<string>();
  messages.forEach((message, index) => {
    parent[index] = index;
    links.kind[index] = kindOf(message);
    links.callIds[index] = [];
    if (links.kind[index] === 'tool_call' && message.role === 'assistant') {
      registerCalls(message, index, links, ownerOfCall, duplicateCallIds);
      // A reasoning-only assistant message right before the call is its thinking: one atom, never split from it.
      const previous = messages[index - 1];
      if (previous !== undefined && previous.role === 'assistant' && isReasoningOnly(previous)) {
        links.kind[index - 1] = 'tool_call';
        union(links, index - 1, index);
      }
    } else linkResults(message, index, links, ownerOfCall, answered);
  });
  for (const [callId, owner] of ownerOfCall) if (!answered.has(callId)) links.orphan[owner] = 1;
  return links;
}

function registerCalls(
  message: Message,
  index: number,
  links: Links,
  ownerOfCall: Map<string, number>,
  duplicateCallIds: ReadonlySet<string>,
): void {
  for (const part of message.parts) {
    if (part.type !== 'tool-call') continue;
    links.callIds[index]!.push(part.callId);
    if (duplicateCallIds.has(part.callId)) links.orphan[index] = 1;
    else ownerOfCall.set(part.callId, index);
  }
}

function linkResults(
  message: Message,
  index: number,
  links: Links,
  ownerOfCall: ReadonlyMap<string, number>,
  answered: Set<string>,
): void {
  let linked = false;
  let hasResults = false;
  for (const part of message.parts) {
    if (part.type !== 'tool-result') continue;
    hasResults = true;
    const owner = ownerOfCall.get(part.callId);
    if (owner === undefined) {
      links.orphan[index] = 1;
      links.callIds[index]!.push(part.callId);
      continue;
    }
    answered.add(part.callId);
    union(links, owner, index);
    linked = true;
  }
  if (hasResults && !linked) links.kind[index] = 'tool_call';
}

function find(parent: Int32Array, index: number): number {
  let root = index;
  while (parent[root] !== root) root = parent[root]!;
  while (parent[index] !== root) {
    const next = parent[index]!;
    parent[index] = root;
    index = next;
  }
  return root;
}

/** Joins two groups; the root is always the smaller index (the group's first message). */
function union(links: Links, left: number, right: number): void {
  const leftRoot = find(links.parent, left);
  const rightRoot = find(links.parent, right);
  if (leftRoot === rightRoot) return;
  const [root, child] = leftRoot < rightRoot ? [leftRoot, rightRoot] : [rightRoot, leftRoot];
  links.parent[child] = root;
}

/** Only thinking (reasoning parts, empty text at most): no content the API counts as an answer. */
export function isReasoningOnly(message: Message): boolean {
  return (
    message.parts.some((part) => part.type === 'reasoning') &&
    message.parts.every((part) => part.type === 'reasoning' || (part.type === 'text' && part.text.trim() === ''))
  );
}

function kindOf(message: Message): MessageGroupKind {
  if (isSummaryMessage(message)) return 'summary';
  if (message.role === 'system') return 'system';
  if (message.role === 'assistant')
    return message.parts.some((part) => part.type === 'tool-call') ? 'tool_call' : 'assistant_text';
  return 'user';
}

function buildGroups(messages: readonly Message[], links: Links, counter: TokenCounter | undefined): MessageGroup[] {
  const groups: MessageGroup[] = [];
  const groupOfRoot = new Map<number, MessageGroup>();
  messages.forEach((message, index) => {
    const root = find(links.parent, index);
    let group = groupOfRoot.get(root);
    if (group === undefined) {
      group = emptyGroup(links.kind[root]!, groups.length);
      groupOfRoot.set(root, group);
      groups.push(group);
    }
    group.messageIndices.push(index);
    group.messages.push(message);
    group.messageCount++;
    group.chars += messageChars(message);
    group.tokens += counter === undefined ? estimateTokens(message) : counter.count(message);
    if (links.orphan[index] === 1) group.orphan = true;
    for (const callId of links.callIds[index]!) group.callIds.push(callId);
  });
  return groups;
}

function emptyGroup(kind: MessageGroupKind, index: number): MessageGroup {
  return {
    kind,
    index,
    messageIndices: [],
    messages: [],
    messageCount: 0,
    chars: 0,
    tokens: 0,
    callIds: [],
    orphan: false,
  };
}
