/**
 * Long agent sessions for tests and benchmarks: hundreds of model
 * requests, prompts past 100k tokens, built by driving the real agent loop
 * (`createAgent` of @ctxhost/anthropic, the real SDK over HTTP) against
 * @ctxhost/simulator, with every tool output, tool call and user request taken
 * from the real transcripts in test/fixtures/corpus (errors included). The
 * assistant's turns are scripted from its seed number: how many tool calls a request
 * makes, which corpus outputs they get, parallel calls.
 *
 * HELD OUT (never tune on these; check on them before calling a change done,
 * and report their figures apart): seeds 9001, 9002 and 9003, and any session
 * whose `sources` is `['swe-agent']` (SWE-agent's outputs are user-text
 * observations in the corpus; here they arrive as tool results). Tuning sets:
 * seeds 1–99 with the default sources.
 *
 * The result carries the messages (what the session store holds after the
 * run), the system prompt, the API-reported usage of every request, and a
 * Claude-Code-style JSONL transcript that `@ctxhost/transcripts` reads and
 * `ctxhost replay` replays. Sessions are cached in the OS temp folder by their
 * options, so a second call costs a file read.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createAgent, createAnthropicModel, type AgentTool } from '@ctxhost/anthropic';
import { createHost, type JsonValue, type Message, type Usage } from '@ctxhost/core';
import { mulberry32, startSimulator, type ContentBlock, type ScriptedTurn } from '@ctxhost/simulator';
import { readTranscript } from '@ctxhost/transcripts';

export type CorpusSource = 'claude-code' | 'openhands' | 'swe-agent';

export interface LongSessionOptions {
  seed: number;
  /** User requests (default 60); each makes 1 to `maxCallsPerRequest` tool calls, so a session has 3–5× as many model requests. */
  requests?: number;
  /** Tool calls per user request at most (default 6). */
  maxCallsPerRequest?: number;
  /** Corpus folders the tool outputs and requests come from (default claude-code and openhands). */
  sources?: CorpusSource[];
  /** Outputs longer than this many characters are skipped (default 40,000), so one output cannot be most of a small window. */
  maxOutputChars?: number;
  model?: string;
  /** Read and write the temp-folder cache (default true). */
  cache?: boolean;
}

export interface LongSession {
  name: string;
  options: Required<Omit<LongSessionOptions, 'cache'>>;
  system: string;
  /** The whole session as stored: system prompt, user requests, assistant turns, tool results. */
  messages: Message[];
  /** The usage each model request reported, in order. */
  usage: Usage[];
  modelRequests: number;
  /** The largest prompt the API reported (input + cache write + cache read). */
  peakPromptTokens: number;
  /** Claude Code JSONL: one line per user request, assistant turn and tool-result message. */
  transcript: string;
}

export const HELD_OUT_SEEDS: readonly number[] = [9001, 9002, 9003];
export const LONG_SESSION_DEFAULTS = {
  requests: 60,
  maxCallsPerRequest: 6,
  sources: ['claude-code', 'openhands'] as CorpusSource[],
  maxOutputChars: 40_000,
  model: 'claude-sonnet-4-6',
};

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'corpus');
export const CORPUS_FILES: Record<CorpusSource, string[]> = {
  'claude-code': [
    '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl',
    '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
    'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
  ],
  openhands: ['basic_gui_mode.json', 'multi-swe-bench-output.jsonl'],
  'swe-agent': [
    'marshmallow-code__marshmallow-1867.traj',
    'pydicom__pydicom-1458.traj',
    'swe-agent__test-repo-i1.traj',
  ],
};
const SYSTEM =
  'You are a coding agent working in a repository. Use the tools to read, search and run commands; report what you found and what you changed.';
const CACHE_VERSION = 1;

interface PoolCall {
  name: string;
  input: JsonValue;
  output: string;
  isError: boolean;
}

interface Pool {
  calls: PoolCall[];
  requests: string[];
  remarks: string[];
}

/** Generates (or reads from the cache) one long session. */
export async function generateLongSession(options: LongSessionOptions): Promise<LongSession> {
  const { cache = true, ...rest } = options;
  const resolved: Required<Omit<LongSessionOptions, 'cache'>> = {
    ...LONG_SESSION_DEFAULTS,
    ...rest,
    sources: [...(rest.sources ?? LONG_SESSION_DEFAULTS.sources)].sort(),
  };
  if (!cache) return drive(resolved);
  const key = createHash('sha256').update(JSON.stringify({ CACHE_VERSION, resolved })).digest('hex').slice(0, 16);
  const file = join(tmpdir(), 'ctxhost-long-sessions', `${key}.json`);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as LongSession;
  } catch {
    const session = await drive(resolved);
    await mkdir(join(tmpdir(), 'ctxhost-long-sessions'), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(session));
    await rename(temporary, file);
    return session;
  }
}

async function drive(options: Required<Omit<LongSessionOptions, 'cache'>>): Promise<LongSession> {
  const pool = await loadPool(options.sources, options.maxOutputChars);
  const random = mulberry32(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const simulator = await startSimulator({ contextLimit: 50_000_000 });
  const host = createHost({
    config: { store: { kind: 'memory' }, compression: { enabled: false }, model: { contextLength: 50_000_000 } },
  });
  const usage: Usage[] = [];
  host.hooks.messageUpdated.tapPromise('long-session', async (event) => {
    if (event.usage !== undefined && event.message.role === 'assistant') usage.push(event.usage);
  });
  const queued: PoolCall[] = [];
  const toolNames = [...new Set(pool.calls.map((call) => call.name))];
  const tools: AgentTool[] = toolNames.map((name) => ({
    definition: { name, description: `Corpus tool ${name}.`, inputSchema: { type: 'object' } },
    run: async () => {
      const call = queued.shift();
      return call === undefined
        ? { output: 'no output', isError: true }
        : { output: call.output, isError: call.isError };
    },
  }));
  const client = new Anthropic({ apiKey: 'long-session', baseURL: simulator.url, maxRetries: 0 });
  const agent = createAgent({
    host,
    model: createAnthropicModel(client, { model: options.model, contextWindow: 50_000_000 }),
    tools,
    system: SYSTEM,
    maxTokens: 1024,
    maxTurns: 100,
  });
  const sessionId = `long-${options.seed}`;
  let callNumber = 0;
  try {
    for (let request = 0; request < options.requests; request++) {
      const calls = 1 + Math.floor(random() * options.maxCallsPerRequest);
      const turns: ScriptedTurn[] = [];
      for (let made = 0; made < calls;) {
        const parallel = Math.min(calls - made, random() < 0.2 ? 2 + Math.floor(random() * 2) : 1);
        const content: ContentBlock[] = [{ type: 'text', text: pick(pool.remarks) }];
        for (let index = 0; index < parallel; index++) {
          const call = pick(pool.calls);
          queued.push(call);
          content.push({
            type: 'tool_use',
            id: `toolu_long_${options.seed}_${++callNumber}`,
            name: call.name,
            input: call.input,
          });
        }
        turns.push({ content });
        made += parallel;
      }
      turns.push({ content: pick(pool.remarks) });
      simulator.script(...turns);
      const outcome = await agent.send(sessionId, pick(pool.requests));
      if (outcome.status !== 'done')
        throw new Error(`generateLongSession: request ${request} of seed ${options.seed} ended with ${outcome.status}`);
    }
    const messages = [...(await host.session(sessionId)).messages()];
    const peakPromptTokens = Math.max(
      0,
      ...usage.map((item) => item.inputTokens + item.cacheCreationInputTokens + item.cacheReadInputTokens),
    );
    const name = `long-${options.sources.join('+')}-seed${options.seed}`;
    return {
      name,
      options,
      system: SYSTEM,
      messages,
      usage,
      modelRequests: usage.length,
      peakPromptTokens,
      transcript: toClaudeCodeJsonl(messages, usage, name, options.model),
    };
  } finally {
    await host.dispose();
    await simulator.close();
  }
}

async function loadPool(sources: readonly CorpusSource[], maxOutputChars: number): Promise<Pool> {
  const pool: Pool = { calls: [], requests: [], remarks: [] };
  for (const source of sources) {
    for (const file of CORPUS_FILES[source]) {
      const { messages } = await readTranscript(join(CORPUS, source, file), {
        includeSidechains: true,
        skipInvalid: true,
      });
      collect(messages, pool, maxOutputChars);
    }
  }
  if (pool.calls.length === 0 || pool.requests.length === 0)
    throw new Error(
      `generateLongSession: the corpus sources ${sources.join(', ')} hold no tool calls or user requests`,
    );
  if (pool.remarks.length === 0) pool.remarks.push('Looking at the output.');
  return pool;
}

/** Every answered tool call with its real output; user requests and assistant remarks of a sensible length. */
function collect(messages: readonly Message[], pool: Pool, maxOutputChars: number): void {
  const calls = new Map<string, { name: string; input: JsonValue }>();
  // A task statement is a request however long it is (SWE-agent's issue texts run 3–5k characters, and its
  // observations are tool results): the transcript's last user text before the first tool call, up to 8k.
  const firstCall = messages.findIndex((message) => message.parts.some((part) => part.type === 'tool-call'));
  const firstRequest = messages
    .slice(0, firstCall < 0 ? messages.length : firstCall)
    .findLast((message) => message.role === 'user' && message.parts.some((part) => part.type === 'text'));
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-call')
        calls.set(part.callId, {
          name: part.name,
          input:
            typeof part.input === 'object' && part.input !== null && !Array.isArray(part.input)
              ? part.input
              : { input: part.input },
        });
      if (part.type === 'tool-result') {
        const call = calls.get(part.callId);
        const output =
          typeof part.output === 'string'
            ? part.output
            : part.output.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
        if (call !== undefined && output.length > 0 && output.length <= maxOutputChars)
          pool.calls.push({ ...call, output, isError: part.isError === true });
      }
      if (part.type === 'text' && message === firstRequest && part.text.length > 2_000 && part.text.length <= 8_000)
        pool.requests.push(part.text);
      if (part.type === 'text' && part.text.length >= 20 && part.text.length <= 2_000) {
        if (message.role === 'user' && !part.text.startsWith('<')) pool.requests.push(part.text);
        if (message.role === 'assistant') pool.remarks.push(part.text);
      }
    }
  }
  // SWE-agent and OpenHands observations arrive as user text: in those formats, long user texts after the first are outputs.
  const userTexts = messages
    .filter((message) => message.role === 'user')
    .slice(1)
    .flatMap((message) =>
      message.parts.flatMap((part) =>
        part.type === 'text' && part.text.length > 2_000 && part.text.length <= maxOutputChars ? [part.text] : [],
      ),
    );
  for (const text of userTexts)
    pool.calls.push({
      name: 'observation',
      input: { command: text.split('\n')[0]!.slice(0, 120) },
      output: text,
      isError: /error|traceback|failed/i.test(text.slice(0, 400)),
    });
}

/** The session as Claude Code writes it: user text lines, assistant lines with the API message and its usage, tool results in user lines. */
export function toClaudeCodeJsonl(
  messages: readonly Message[],
  usage: readonly Usage[],
  sessionId: string,
  model: string,
): string {
  const lines: string[] = [];
  let parent: string | null = null;
  let request = 0;
  const base = Date.UTC(2026, 0, 1);
  messages.forEach((message, index) => {
    if (message.role === 'system') return;
    const uuid = `${sessionId}-${index}`;
    const common = {
      parentUuid: parent,
      isSidechain: false,
      sessionId,
      uuid,
      timestamp: new Date(base + index * 1000).toISOString(),
      version: 'ctxhost-long-session',
    };
    if (message.role === 'assistant') {
      const used = usage[request++];
      const content = message.parts.flatMap((part): JsonValue[] =>
        part.type === 'text'
          ? [{ type: 'text', text: part.text }]
          : part.type === 'tool-call'
            ? [{ type: 'tool_use', id: part.callId, name: part.name, input: part.input }]
            : [],
      );
      lines.push(
        JSON.stringify({
          ...common,
          type: 'assistant',
          requestId: `req_long_${request}`,
          message: {
            id: `msg_${uuid}`,
            type: 'message',
            role: 'assistant',
            model,
            content,
            stop_reason: content.some((block) => (block as { type: string }).type === 'tool_use')
              ? 'tool_use'
              : 'end_turn',
            usage: used === undefined ? undefined : wireUsage(used),
          },
        }),
      );
    } else if (message.role === 'tool') {
      const content = message.parts.flatMap((part): JsonValue[] =>
        part.type === 'tool-result'
          ? [
              {
                type: 'tool_result',
                tool_use_id: part.callId,
                content:
                  typeof part.output === 'string'
                    ? part.output
                    : part.output.map((item) => (item.type === 'text' ? item.text : '')).join('\n'),
                ...(part.isError ? { is_error: true } : {}),
              },
            ]
          : [],
      );
      lines.push(JSON.stringify({ ...common, type: 'user', message: { role: 'user', content } }));
    } else {
      const text = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
      lines.push(JSON.stringify({ ...common, type: 'user', message: { role: 'user', content: text } }));
    }
    parent = uuid;
  });
  return `${lines.join('\n')}\n`;
}

function wireUsage(usage: Usage): Record<string, number> {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
  };
}
