import { countTextTokens, messageBlocks, systemBlocks } from '../wire/tokenizer.js';
import type { AssistantTurn, ContentBlock, MessagesRequest } from '../wire/wire.js';

export const SUMMARY_HEADINGS = [
  'Goal',
  'Constraints & Preferences',
  'Progress',
  'Key Decisions',
  'Relevant Files',
  'Next Steps',
  'Critical Context',
] as const;
const MINIMUM_HEADINGS = 5;

/** All text a request carries, system and tool results included. */
export function requestText(request: Pick<MessagesRequest, 'messages' | 'system'>): string {
  const parts: string[] = systemBlocks(request.system).map((block) => block.text ?? '');
  for (const message of request.messages) for (const block of messageBlocks(message)) parts.push(blockText(block));
  return parts.join('\n');
}

function blockText(block: ContentBlock): string {
  if (typeof block.text === 'string') return block.text;
  if (block.type === 'tool_use') return JSON.stringify(block['input']);
  if (block.type === 'tool_result') {
    const content = block['content'];
    return typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? (content as ContentBlock[]).map(blockText).join('\n')
        : '';
  }
  return '';
}

/**
 * A summarization request carries the compressor's template, at least five of
 * its section headings, in what it asks: the system prompt or its last user
 * message. A summary already in the history (a turn after a compaction) does
 * not make a request a summarization request.
 */
export function isSummaryRequest(request: Pick<MessagesRequest, 'messages' | 'system'>): boolean {
  const lastUser = request.messages.findLast((message) => message.role === 'user');
  const text = requestText({ system: request.system, messages: lastUser === undefined ? [] : [lastUser] });
  return (
    SUMMARY_HEADINGS.filter((heading) => new RegExp(`^#{1,3}\\s*${escape(heading)}\\s*$`, 'm').test(text)).length >=
    MINIMUM_HEADINGS
  );
}

/**
 * A deterministic structured summary built from the request's own content:
 * what a test can check survived compaction (paths, commands, errors, asks).
 */
export function buildSummary(request: Pick<MessagesRequest, 'messages' | 'system'>): string {
  return renderSummary(summaryFacts(request), 1);
}

/**
 * The reply to a summarization request, within its `max_tokens` as a model
 * told its budget keeps to it: the lists shorten first; what still does not
 * fit is cut where the API stops a reply (`stop_reason: "max_tokens"`).
 */
export function summaryTurn(request: MessagesRequest): AssistantTurn {
  const facts = summaryFacts(request);
  for (const share of LIST_SHARES) {
    const text = renderSummary(facts, share);
    if (countTextTokens(text) <= request.max_tokens)
      return { content: [{ type: 'text', text }], stop_reason: 'end_turn' };
  }
  const text = cutToTokens(renderSummary(facts, 0), request.max_tokens);
  return { content: [{ type: 'text', text }], stop_reason: 'max_tokens' };
}

/** How much of each list a budgeted summary keeps, tried in order. */
const LIST_SHARES = [1, 0.5, 0.25, 0.1, 0];

interface SummaryFacts {
  files: string[];
  commands: string[];
  errors: string[];
  asks: string[];
  done: string[];
  messages: number;
}

function summaryFacts(request: Pick<MessagesRequest, 'messages' | 'system'>): SummaryFacts {
  const text = requestText(request);
  const unique = (items: Iterable<string>, limit: number) => [...new Set(items)].slice(0, limit);
  return {
    files: unique(
      text.match(/(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]+\.\w+|\b[\w-]+\.(?:ts|js|py|json|md|c|h|go|rs|yaml|yml|txt)\b/g) ??
        [],
      40,
    ),
    commands: unique(
      [...text.matchAll(/(?:^|\n)\s*\$ ([^\n]+)|"command":\s*"([^"]+)"/g)]
        .map((m) => (m[1] ?? m[2] ?? '').trim())
        .filter(Boolean),
      20,
    ),
    errors: unique(
      [...text.matchAll(/^.*\b(?:error|Error|ERROR|failed|FAILED|Traceback|exception)\b.*$/gm)].map((m) =>
        m[0].trim().slice(0, 160),
      ),
      15,
    ),
    asks: unique(
      userTexts(request)
        .map((ask) => ask.trim().split('\n')[0]!.slice(0, 160))
        .filter(Boolean),
      10,
    ),
    done: unique(previousDoneItems(text), 20),
    messages: request.messages.length,
  };
}

/** The summary with `share` of each list kept (the newest items of the running lists, the first of the others). */
function renderSummary(facts: SummaryFacts, share: number): string {
  const first = (items: string[]) => items.slice(0, Math.ceil(items.length * share));
  const last = (items: string[]) => (share === 0 ? [] : items.slice(-Math.ceil(items.length * share)));
  const { asks, commands, errors } = facts;
  const list = (items: string[], empty: string) =>
    items.length > 0 ? items.map((item) => `- ${item}`).join('\n') : `- ${empty}`;
  return [
    `## Goal\n${asks[0] ?? 'Continue the task in progress.'}`,
    `## Constraints & Preferences\n${list(first(asks.slice(1, 4)), 'none stated')}`,
    `## Progress\n### Done\n${list(last(facts.done), 'nothing recorded yet')}\n### In Progress\n${list(first(commands.slice(-3)), 'none')}\n### Blocked\n${list(first(errors.slice(0, 3)), 'nothing')}`,
    `## Key Decisions\n- summarized by the ctxhost simulator from ${facts.messages} messages`,
    `## Relevant Files\n${list(first(facts.files), 'none mentioned')}`,
    `## Next Steps\n${list(asks.slice(-1), 'continue')}`,
    `## Critical Context\n${list(first([...commands.map((c) => `ran: ${c}`), ...errors]), 'none')}`,
  ].join('\n\n');
}

/** The longest prefix of `text` within `maxTokens` by the simulator's tokenizer (where the API stops a reply at max_tokens). */
function cutToTokens(text: string, maxTokens: number): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (countTextTokens(text.slice(0, middle)) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  return text.slice(0, low);
}

function userTexts(request: Pick<MessagesRequest, 'messages'>): string[] {
  return request.messages
    .filter((message) => message.role === 'user')
    .flatMap((message) =>
      messageBlocks(message)
        .filter((b) => b.type === 'text')
        .map((b) => b.text ?? ''),
    );
}

function previousDoneItems(text: string): string[] {
  const done = /### Done\n((?:- .*\n?)+)/.exec(text);
  return done === null
    ? []
    : done[1]!
        .split('\n')
        .map((line) => line.replace(/^- /, '').trim())
        .filter((line) => line.length > 0 && line !== 'nothing recorded yet');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\&]/g, '\\$&');
}
