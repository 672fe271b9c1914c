import { promptTokens, toAnthropic, type Message, type ToolDefinition } from '@ctxhost/core';
import { countTokens, type MessagesRequest } from '@ctxhost/simulator';
import type { TranscriptUsage } from '@ctxhost/transcripts';

/**
 * What a transcript did not log but every request carried: the agent's system prompt
 * and tool definitions (Claude Code sends about 14k tokens of them). Rebuilt as a
 * stand-in system prompt of the size the first recorded request implies: its reported
 * prompt minus what its logged messages count.
 */
export interface ReconstructedPrefix {
  /** Tokens the stand-in adds: the recorded prompt minus `loggedTokens` (the simulator's count). */
  tokens: number;
  /** The prompt the first recorded request reported. */
  recordedPrompt: number;
  /** What that request's logged messages, the known system prompt, the placeholder's header and the replay's tool definitions count. */
  loggedTokens: number;
  /** The stand-in system prompt (the known system prompt, if any, first). */
  system: string;
  /** The head every request of the thread starts with: the replay's tools and the stand-in system prompt. */
  headTokens: number;
  /**
   * What the first recorded request read from the cache: its system prompt and tools, cached before the
   * session began (Claude Code's are warm from earlier sessions). At most the stand-in and the tools.
   */
  warmTokens: number;
  /**
   * `system` as two blocks, the tools and the first holding `warmTokens` as nearly as a block
   * boundary can without going over: what a replay starting warm sends, so its cache can hold
   * exactly the recorded warm prefix. One block when all of it was warm.
   */
  warmSplit: string[];
}

const HEADER =
  "[ctxhost replay: the agent's own system prompt and tool definitions were not in the transcript; this reconstructed placeholder stands in for their size, taken from the first recorded request]";
/** Words of at most five letters: one token each for the simulator and for ctxhost's estimator. */
const FILLER = [
  'alpha',
  'bravo',
  'delta',
  'echo',
  'golf',
  'hotel',
  'india',
  'kilo',
  'lima',
  'mike',
  'oscar',
  'papa',
  'romeo',
  'tango',
  'zulu',
];

export interface ReconstructPrefixInput {
  messages: readonly Message[];
  usage: readonly TranscriptUsage[];
  /** The transcript's own system prompt, if it logged one. */
  system: string | undefined;
  tools: readonly ToolDefinition[];
  /** Size the subagents' prefix from their first request instead of the main thread's. */
  sidechain: boolean;
  /** The most tokens the stand-in may have (the replay's window): a transcript's reported count never sizes more. */
  maxTokens?: number;
}

/** Above any model's window: a reported prompt larger than this is not a prompt, and never sizes the stand-in. */
export const MAX_PREFIX_TOKENS = 2_000_000;

/** The stand-in prefix for the main thread or the subagents; undefined when no request of theirs reported usage. */
export function reconstructPrefix(input: ReconstructPrefixInput): ReconstructedPrefix | undefined {
  const entry = input.usage.find((candidate) => (candidate.sidechain === true) === input.sidechain);
  const reply = entry === undefined ? undefined : input.messages[entry.replyIndex];
  if (entry === undefined || reply === undefined) return undefined;
  const logged = input.messages
    .slice(0, entry.replyIndex)
    .filter((message) => sameThread(message, reply) && message.role !== 'system' && message.meta?.uiOnly === undefined);
  const withHeader = [input.system, HEADER].filter((text) => text !== undefined && text !== '').join('\n\n');
  const request = {
    ...(toAnthropic(logged) as unknown as Pick<MessagesRequest, 'messages'>),
    system: withHeader,
    tools: input.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    })),
  };
  const loggedTokens = countTokens(request);
  const recordedPrompt = promptTokens(entry.usage);
  const limit = Math.min(input.maxTokens ?? MAX_PREFIX_TOKENS, MAX_PREFIX_TOKENS);
  // A transcript that reports 1e9 input tokens gets a stand-in the size of the window, not an array of 1e9 words.
  const missing = Math.min(Number.isFinite(recordedPrompt) ? recordedPrompt - loggedTokens : 0, limit);
  if (missing <= 0) return undefined;
  const words = Array.from({ length: missing }, (_, index) => FILLER[index % FILLER.length]!);
  const system = `${withHeader} ${words.join(' ')}`;
  const head = countTokens({ messages: [], tools: request.tools, system });
  const warmTokens = Math.min(Math.max(0, entry.usage.cacheReadInputTokens), head);
  return {
    tokens: missing,
    recordedPrompt,
    loggedTokens,
    system,
    headTokens: head,
    warmTokens,
    warmSplit: split(words),
  };

  function split(all: string[]): string[] {
    if (warmTokens >= head) return [system];
    const first = (count: number) => `${withHeader} ${all.slice(0, count).join(' ')}`.trimEnd();
    const through = (count: number) =>
      countTokens({ messages: [], tools: request.tools, system: [{ type: 'text', text: first(count) }] });
    // Each filler word is one token: the first block takes as many as fit in the warm prefix, never more.
    let warmWords = Math.max(0, warmTokens - through(0));
    while (warmWords > 0 && through(warmWords) > warmTokens) warmWords--;
    if (warmWords >= all.length) return [system];
    return [first(warmWords), all.slice(warmWords).join(' ')];
  }
}

function sameThread(message: Message, reply: Message): boolean {
  if (reply.meta?.sidechain !== true) return message.meta?.sidechain !== true;
  return message.meta?.sidechain === true && message.meta.thread === reply.meta.thread;
}
