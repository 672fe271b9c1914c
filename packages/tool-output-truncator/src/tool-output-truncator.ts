import {
  contextWindowOf,
  formatTokens,
  ORIGINAL_TOOL_NAME,
  readHookSection,
  type Host,
  type Plugin,
  type ToolResultContent,
  type ToolResultPart,
} from '@ctxhost/core';
import { TruncatorConfigSchema, type TruncatorConfig } from './config.js';
import { truncateMiddle } from './truncate-middle.js';

export const TOOL_OUTPUT_TRUNCATOR = 'tool-output-truncator';

/**
 * One output never takes more than this share of the room left in the window
 * (window − the prompt so far − outputs of the same message already admitted),
 * whatever `max_tokens` says: oh-my-opencode's `min(remaining × 0.5, 50k)`. An
 * output that cannot fit is never admitted whole.
 */
export const ROOM_SHARE = 0.5;
/** The cap never goes below this, so even a full window keeps a head, a tail and the marker. */
export const MIN_CAP_TOKENS = 100;
/** Messages whose admitted outputs are remembered (parallel calls of one message share the room). */
const MESSAGES_TRACKED = 64;

export interface ToolOutputTruncatorOptions {
  maxTokens?: number;
  perTool?: Record<string, number>;
  exempt?: string[];
}

/**
 * Caps one tool output as it arrives (the `toolResult` waterfall), keeping
 * its head and tail. The part it returns is what the model sees; whoever
 * appends it keeps the original (`session.append(message, { originals })`),
 * so `store.original(partId)` returns the full output.
 */
export function createToolOutputTruncator(options: ToolOutputTruncatorOptions = {}): Plugin {
  return {
    name: TOOL_OUTPUT_TRUNCATOR,
    apply(host) {
      const config = resolveConfig(host, options);
      const admitted = new Map<string, number>();
      host.hooks.toolResult.tapPromise(TOOL_OUTPUT_TRUNCATOR, async (part, context) => {
        if (config.exempt.includes(context.toolName)) return part;
        const session = await host.session(context.sessionId);
        const window = contextWindowOf(session, host.config);
        const key = `${context.sessionId}\u0000${context.messageId}`;
        const used = admitted.get(key) ?? 0;
        const room = window === undefined ? Infinity : window - session.promptSize().tokens - used;
        const cap = Math.min(
          config.per_tool[context.toolName] ?? config.max_tokens,
          Math.max(MIN_CAP_TOKENS, Math.floor(room * ROOM_SHARE)),
        );
        const shown = capToolResult(host, part, cap, config.head_ratio);
        admitted.delete(key);
        admitted.set(key, used + outputTokens(host, shown));
        if (admitted.size > MESSAGES_TRACKED) admitted.delete(admitted.keys().next().value as string);
        return shown;
      });
    },
  };
}

function resolveConfig(host: Host, options: ToolOutputTruncatorOptions): TruncatorConfig {
  const section = readHookSection(host.config, TOOL_OUTPUT_TRUNCATOR, TruncatorConfigSchema);
  return TruncatorConfigSchema.parse({
    ...section,
    max_tokens: options.maxTokens ?? section.max_tokens,
    per_tool: { ...section.per_tool, ...options.perTool },
    exempt: [...section.exempt, ...(options.exempt ?? [])],
  });
}

function outputTokens(host: Pick<Host, 'counter'>, part: ToolResultPart): number {
  return typeof part.output === 'string'
    ? host.counter.countText(part.output)
    : part.output.reduce((sum, block) => sum + (block.type === 'text' ? host.counter.countText(block.text) : 0), 0);
}

/** The part with every text in its output shortened so the whole stays under `capTokens`. */
export function capToolResult(
  host: Pick<Host, 'counter'>,
  part: ToolResultPart,
  capTokens: number,
  headRatio: number,
): ToolResultPart {
  const texts =
    typeof part.output === 'string'
      ? [part.output]
      : part.output.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  const tokens = texts.map((text) => host.counter.countText(text));
  const total = tokens.reduce((sum, n) => sum + n, 0);
  if (total <= capTokens) return part;
  const originalChars = texts.reduce((sum, text) => sum + text.length, 0);
  const shorten = (text: string, textTokens: number): string => {
    const share = capTokens * (textTokens / total);
    const keepChars = Math.floor(text.length * (share / Math.max(textTokens, 1)));
    return truncateMiddle(text, {
      keepChars,
      headRatio,
      marker: (cut, lines) => marker(part.id, cut, lines, textTokens - share),
    }).text;
  };
  const output: ToolResultPart['output'] =
    typeof part.output === 'string'
      ? shorten(part.output, total)
      : texts.length * MARKER_TOKENS > capTokens / 2
        ? keepOuterBlocks(part.output, tokens, capTokens, headRatio, part.id)
        : shortenBlocks(part.output, tokens, shorten);
  return {
    ...part,
    output,
    compacted: {
      by: TOOL_OUTPUT_TRUNCATOR,
      reason: `over the ${formatTokens(capTokens)}-token cap for one tool output`,
      originalChars,
      originalTokens: total,
    },
  };
}

function shortenBlocks(
  blocks: ToolResultContent[],
  tokens: number[],
  shorten: (text: string, tokens: number) => string,
): ToolResultContent[] {
  let textIndex = 0;
  return blocks.map((block) => {
    if (block.type !== 'text') return block;
    const blockTokens = tokens[textIndex++] ?? 0;
    return { ...block, text: shorten(block.text, blockTokens) };
  });
}

/** About what one cut marker costs; with more text blocks than the cap can give a marker each, whole blocks go instead. */
const MARKER_TOKENS = 80;

/**
 * Many text blocks (a listing split into thousands of blocks): a marker in each
 * would cost more than it saves. Whole text blocks are kept from the head and
 * the tail within the cap; those between become one marker; other blocks (images) stay.
 */
function keepOuterBlocks(
  blocks: ToolResultContent[],
  tokens: number[],
  capTokens: number,
  headRatio: number,
  partId: string,
): ToolResultContent[] {
  let headEnd = 0;
  let spent = 0;
  while (headEnd < tokens.length && spent + tokens[headEnd]! <= capTokens * headRatio) spent += tokens[headEnd++]!;
  let tailStart = tokens.length;
  while (tailStart > headEnd && spent + tokens[tailStart - 1]! <= capTokens - MARKER_TOKENS)
    spent += tokens[--tailStart]!;
  const dropped = blocks.filter((block) => block.type === 'text').slice(headEnd, tailStart) as { text: string }[];
  const cutChars = dropped.reduce((sum, block) => sum + block.text.length, 0);
  const cutLines = dropped.reduce((sum, block) => sum + block.text.split('\n').length, 0);
  const cutTokens = tokens.slice(headEnd, tailStart).reduce((sum, n) => sum + n, 0);
  const result: ToolResultContent[] = [];
  let textIndex = 0;
  for (const block of blocks) {
    if (block.type !== 'text') {
      result.push(block);
      continue;
    }
    const index = textIndex++;
    if (index < headEnd || index >= tailStart) result.push(block);
    else if (index === headEnd)
      result.push({
        type: 'text',
        text: marker(partId, cutChars, cutLines, cutTokens, `${tailStart - headEnd} text blocks, `).trim(),
      });
  }
  return result;
}

function marker(partId: string, cutChars: number, cutLines: number, cutTokens: number, blocks = ''): string {
  return (
    `\n\n[... ${blocks}${formatTokens(cutChars)} characters (${formatTokens(cutLines)} lines, about ${formatTokens(cutTokens)} tokens) ` +
    `cut from the middle of this output by ctxhost to fit the context window. The full output is kept as part ${partId}: ` +
    `to read the missing lines, call the ${ORIGINAL_TOOL_NAME} tool with handle "${partId}" and the line range you need.]\n\n`
  );
}
