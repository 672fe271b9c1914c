import { messageBlocks, systemBlocks } from '../wire/tokenizer.js';
import type { ContentBlock, MessagesRequest } from '../wire/wire.js';

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
  const text = requestText(request);
  const unique = (items: Iterable<string>, limit: number) => [...new Set(items)].slice(0, limit);
  const files = unique(
    text.match(/(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]+\.\w+|\b[\w-]+\.(?:ts|js|py|json|md|c|h|go|rs|yaml|yml|txt)\b/g) ??
      [],
    40,
  );
  const commands = unique(
    [...text.matchAll(/(?:^|\n)\s*\$ ([^\n]+)|"command":\s*"([^"]+)"/g)]
      .map((m) => (m[1] ?? m[2] ?? '').trim())
      .filter(Boolean),
    20,
  );
  const errors = unique(
    [...text.matchAll(/^.*\b(?:error|Error|ERROR|failed|FAILED|Traceback|exception)\b.*$/gm)].map((m) =>
      m[0].trim().slice(0, 160),
    ),
    15,
  );
  const asks = unique(
    userTexts(request)
      .map((ask) => ask.trim().split('\n')[0]!.slice(0, 160))
      .filter(Boolean),
    10,
  );
  const done = unique(previousDoneItems(text), 20);
  const list = (items: string[], empty: string) =>
    items.length > 0 ? items.map((item) => `- ${item}`).join('\n') : `- ${empty}`;
  return [
    `## Goal\n${asks[0] ?? 'Continue the task in progress.'}`,
    `## Constraints & Preferences\n${list(asks.slice(1, 4), 'none stated')}`,
    `## Progress\n### Done\n${list(done, 'nothing recorded yet')}\n### In Progress\n${list(commands.slice(-3), 'none')}\n### Blocked\n${list(errors.slice(0, 3), 'nothing')}`,
    `## Key Decisions\n- summarized by the ctxhost simulator from ${request.messages.length} messages`,
    `## Relevant Files\n${list(files, 'none mentioned')}`,
    `## Next Steps\n${list(asks.slice(-1), 'continue')}`,
    `## Critical Context\n${list([...commands.map((c) => `ran: ${c}`), ...errors], 'none')}`,
  ].join('\n\n');
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
