import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createAgent, createAnthropicModel } from '@ctxhost/anthropic';
import { createCompressor } from '@ctxhost/compressor';
import {
  ConfigError,
  createFileStore,
  createMessage,
  createTokenCounter,
  CtxhostError,
  loadConfig,
  toAnthropic,
  type Host,
  type JsonValue,
  type Message,
  type ToastEvent,
  type ToolResultPart,
} from '@ctxhost/core';
import { startSimulator } from '@ctxhost/simulator';
import { capToolResult } from '@ctxhost/tool-output-truncator';
import { parseTranscript, readTranscript, TranscriptError } from '@ctxhost/transcripts';
import { createDefaultHost } from 'ctxhost';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { projectionProblems } from './support/projection-invariants.js';

/** No half of a surrogate pair on its own (String.prototype.isWellFormed is ES2024, past this workspace's lib). */
const hasNoLoneSurrogate = (text: string) =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

/**
 * Hostile inputs, each through the code that meets it first: huge, deeply
 * nested, invalid UTF-8, prototype-polluting keys, a single message larger than
 * the window. Each gets a clear error naming what and where, or is handled;
 * none crashes the host; Object.prototype is never polluted.
 */

const root = mkdtempSync(join(tmpdir(), 'ctxhost-hostile-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
});

const FIFTY_MB = 50 * 1024 * 1024;
const APPENDS = 2_000;
const nested = (levels: number, open: string, close: string, leaf = '1') =>
  `${open.repeat(levels)}${leaf}${close.repeat(levels)}`;
const deepObject = (levels: number): JsonValue => {
  let value: JsonValue = 1;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
};
const pollutingInput = (): JsonValue =>
  JSON.parse(
    '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true},"path":"a.ts"}',
  ) as JsonValue;

let folders = 0;
async function loadProjectConfig(content: string | Buffer, name = 'config.yaml') {
  const cwd = join(root, `config-${++folders}`);
  mkdirSync(join(cwd, '.ctxhost'), { recursive: true });
  writeFileSync(join(cwd, '.ctxhost', name), content);
  return loadConfig({ cwd, userConfigDir: join(cwd, 'user') });
}

async function configError(content: string | Buffer): Promise<string> {
  const error: unknown = await loadProjectConfig(content).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ConfigError.isInstance(error)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error.message;
}

describe('config loading (loadConfig)', () => {
  it.each([
    ['__proto__ at the top', '__proto__:\n  polluted: true\n', /config\.yaml:1:1 __proto__: expected one of the keys/],
    [
      'constructor.prototype at the top',
      'constructor:\n  prototype:\n    polluted: true\n',
      /config\.yaml:1:1 constructor: expected one of the keys/,
    ],
    ['prototype at the top', 'prototype:\n  polluted: true\n', /config\.yaml:1:1 prototype: expected one of the keys/],
    [
      '__proto__ inside a section',
      'compression:\n  __proto__:\n    polluted: true\n',
      /config\.yaml:2:3 compression\.__proto__: expected one of the keys/,
    ],
    [
      '__proto__ inside hooks',
      'hooks:\n  __proto__:\n    polluted: true\n',
      /config\.yaml:2:3 hooks\.__proto__: expected one of the keys/,
    ],
    [
      '20,000 levels of flow nesting',
      nested(20_000, '[', ']'),
      /config\.yaml:1:\d+: expected valid YAML or JSON, got a syntax error \(nested too deeply to read\)/,
    ],
    [
      '3,000 levels of block nesting',
      Array.from({ length: 3000 }, (_, level) => `${' '.repeat(level)}a:`).join('\n'),
      /expected valid YAML or JSON, got a syntax error \(nested too deeply to read\)/,
    ],
    [
      'aliases that expand without bound',
      [
        'a: &a [x, x, x, x, x, x, x, x, x]',
        ...'bcdef'
          .split('')
          .map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdef'[index]}`).join(', ')}]`),
      ].join('\n'),
      /cannot be read safely/,
    ],
    [
      'invalid UTF-8 bytes in a key',
      Buffer.from([0x63, 0x6f, 0x6d, 0xff, 0xfe, 0xc3, 0x28, 0x3a, 0x20, 0x31, 0x0a]),
      /config\.yaml:1:1 com\uFFFD\uFFFD\uFFFD\(: expected one of the keys/,
    ],
    [
      'binary garbage',
      Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919) % 256)),
      /config \.ctxhost\/config\.yaml/,
    ],
  ])('%s: a ConfigError naming the file and the key', async (_name, content, expected) => {
    const message = await configError(content);
    expect(message).toMatch(expected);
  });

  it('__proto__ and constructor as hook names to disable: warned about and ignored, nothing polluted', async () => {
    const { config, warnings } = await loadProjectConfig('disabled_hooks: [__proto__, constructor]\n');
    expect(config.disabledHooks).toEqual([]);
    expect(warnings.map((warning) => warning.path)).toEqual(['disabled_hooks[0]', 'disabled_hooks[1]']);
    expect(warnings[0]?.message).toMatch(/^unknown hook "__proto__", ignored/);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a 20 MB file of comments around one key loads', async () => {
    const { config } = await loadProjectConfig(`# ${'x'.repeat(20_000_000)}\ncompression:\n  threshold: 0.6\n`);
    expect(config.compression.threshold).toBe(0.6);
  });

  it('a JSON config with __proto__ keys is refused the same way', async () => {
    const error: unknown = await loadProjectConfig(
      '{"__proto__": {"polluted": true}, "compression": {"constructor": {"prototype": {"polluted": true}}}}',
      'config.json',
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ConfigError.isInstance(error) && error.message).toMatch(
      /compression\.constructor: expected one of the keys/,
    );
  });
});

describe('transcript import', () => {
  const claudeLine = (value: Record<string, unknown>) => JSON.stringify({ sessionId: 's', ...value });
  const toolUse = (input: string) =>
    `{"type":"assistant","uuid":"u1","sessionId":"s","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"x","input":${input}}]}}`;

  it.each([
    ['Claude Code: a tool input 100,000 objects deep', toolUse(nested(100_000, '{"a":', '}'))],
    ['Claude Code: a tool input 100,000 arrays deep', toolUse(nested(100_000, '[', ']'))],
    [
      'SWE-agent: arguments 100,000 levels deep',
      JSON.stringify({
        history: [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: '',
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'x', arguments: nested(100_000, '{"a":', '}') } },
            ],
          },
        ],
      }),
    ],
    [
      'OpenHands: args 100,000 levels deep',
      `[{"id":1,"source":"agent","action":"run","args":${nested(100_000, '{"a":', '}')},"tool_call_metadata":{"tool_call_id":"c1","function_name":"x"}}]`,
    ],
  ])('%s: a TranscriptError naming the line and where it is too deep', (_name, text) => {
    let caught: unknown;
    try {
      parseTranscript(text, { file: 'deep.json' });
    } catch (error) {
      caught = error;
    }
    expect(TranscriptError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toMatch(
      /^transcript deep\.json(:\d+)?: imported message \d+ \(.+\) nests more than 256 levels deep at parts\.\d+\.input\./,
    );
  });

  it('prototype-polluting keys in a tool input are kept as plain data, never applied', () => {
    const transcript = parseTranscript(toolUse(JSON.stringify(pollutingInput())));
    const part = transcript.messages[0]?.parts[0];
    expect(part?.type === 'tool-call' && Object.keys(part.input as object)).toEqual([
      '__proto__',
      'constructor',
      'prototype',
      'path',
    ]);
    expect(JSON.stringify(toAnthropic(transcript.messages).messages)).toContain('"__proto__":{"polluted":true}');
  });

  it('invalid UTF-8 bytes in a transcript file are read as replacement characters, and bad lines are reported by number', async () => {
    const file = join(root, 'invalid-utf8.jsonl');
    const good = Buffer.from(
      `${claudeLine({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'caf' } }).replace('"caf"', '"caf\u00e9"')}\n`,
    );
    const bad = Buffer.concat([
      Buffer.from('{"type":"user","uuid":"u2","sessionId":"s","message":{"role":"user","content":"'),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
      Buffer.from('"}}\n'),
    ]);
    const broken = Buffer.from([0x7b, 0xff, 0x22, 0x0a]);
    writeFileSync(file, Buffer.concat([good, bad, broken]));
    await expect(readTranscript(file)).rejects.toThrow(/invalid-utf8\.jsonl:3: not valid JSON/);
    const transcript = await readTranscript(file, { skipInvalid: true });
    expect(transcript.skipped).toBe(1);
    expect(
      transcript.messages.map((message) => (message.parts[0]?.type === 'text' ? message.parts[0].text : '')),
    ).toEqual(['caf\u00e9', '\uFFFD(\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD']);
  });

  it('a 50 MB tool output imports whole', () => {
    const output = 'x'.repeat(FIFTY_MB);
    const text = [
      toolUse('{"path":"big.log"}'),
      claudeLine({
        type: 'user',
        uuid: 'u2',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: output }] },
      }),
    ].join('\n');
    const result = parseTranscript(text).messages[1]?.parts[0];
    expect(result?.type === 'tool-result' && result.output.length).toBe(FIFTY_MB);
  });

  it('a transcript of 100,000 messages imports', () => {
    const lines = Array.from({ length: 100_000 }, (_, index) =>
      claudeLine({ type: 'user', uuid: `u${index}`, message: { role: 'user', content: `message ${index}` } }),
    );
    expect(parseTranscript(lines.join('\n')).messages).toHaveLength(100_000);
  });
});

describe('the host (createDefaultHost: append, the engine and the request waterfall)', () => {
  const WINDOW = 20_000;
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });
  const defaultHost = async () => {
    host = await createDefaultHost({ config: { store: { kind: 'memory' }, model: { contextLength: WINDOW } } });
    return host;
  };
  const request = (messages: readonly Message[]) => ({
    sessionId: 's',
    model: 'claude-sonnet-4-6',
    messages,
    maxTokens: 1024,
  });
  const callAndResult = (output: string, input: JsonValue = { path: 'big.log' }): [Message, ToolResultPart] => {
    const call = createMessage('assistant', [{ type: 'tool-call', callId: 'c1', name: 'read_file', input }]);
    return [call, { id: 'r1:0', type: 'tool-result', callId: 'c1', output }];
  };

  it('a 50 MB tool output is capped by the truncator, the original kept, and the request fits the window', async () => {
    const current = await defaultHost();
    const session = await current.session('s');
    await session.append(createMessage('user', [{ type: 'text', text: 'read the log' }]));
    const [call, result] = callAndResult(`first line\n${'log line\n'.repeat(FIFTY_MB / 9)}last line: 3 tests failed`);
    await session.append(call);
    const shown = await current.hooks.toolResult.promise(result, {
      sessionId: 's',
      toolName: 'read_file',
      messageId: 'r1',
    });
    await session.append({ id: 'r1', role: 'tool', parts: [shown] }, { originals: [result] });
    const sent = await current.hooks.beforeRequest.promise(request(session.messages()), {
      sessionId: 's',
      contextWindow: WINDOW,
    });
    expect(current.counter.countAll(sent.messages)).toBeLessThan(WINDOW);
    const text = JSON.stringify(sent.messages);
    expect(text).toContain('first line');
    expect(text).toContain('last line: 3 tests failed');
    const original = await session.original('r1:0');
    expect(original?.type === 'tool-result' && original.output.length).toBe(result.output.length);
  });

  it('a tool input 100,000 levels deep is refused at append with an error naming the message, and the session carries on', async () => {
    const session = await (await defaultHost()).session('s');
    await session.append(createMessage('user', [{ type: 'text', text: 'go' }]));
    const [call] = callAndResult('', deepObject(100_000));
    const error: unknown = await session.append(call).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(CtxhostError.hasCode(error, 'CTXHOST_MESSAGE_INVALID')).toBe(true);
    expect((error as Error).message).toMatch(
      new RegExp(`^message ${call.id} nests more than 256 levels deep at parts\\.0\\.input\\.a\\.a`),
    );
    await session.append(createMessage('assistant', [{ type: 'text', text: 'still here' }]));
    expect(session.messages()).toHaveLength(2);
  });

  it('prototype-polluting keys in tool inputs and metadata travel as data through append, the waterfall and a file store reopened', async () => {
    const directory = join(root, 'sessions');
    host = await createDefaultHost({
      config: { store: { kind: 'file', path: directory }, model: { contextLength: WINDOW } },
    });
    const session = await host.session('s');
    await session.append(
      createMessage('user', [{ type: 'text', text: 'go' }], {
        meta: JSON.parse(
          '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
        ) as Message['meta'],
      }),
    );
    const [call, result] = callAndResult('done', pollutingInput());
    await session.append(call);
    await session.append({ id: 'r1', role: 'tool', parts: [result] });
    const sent = await host.hooks.beforeRequest.promise(request(session.messages()), {
      sessionId: 's',
      contextWindow: WINDOW,
    });
    // Validation (zod) leaves a "__proto__" key out rather than assigning it; "constructor" and "prototype" stay as plain data.
    const input =
      sent.messages[1]?.parts[0]?.type === 'tool-call'
        ? (sent.messages[1].parts[0].input as Record<string, unknown>)
        : {};
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(input['polluted']).toBeUndefined();
    expect(Object.keys(input)).toEqual(['constructor', 'prototype', 'path']);
    expect(JSON.stringify(toAnthropic(sent.messages).messages)).toContain(
      '"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}',
    );
    await host.dispose();
    const store = createFileStore({ directory });
    const events = await store.read('s');
    await store.close();
    expect(JSON.stringify(events)).toContain('"constructor":{"prototype":{"polluted":true}}');
  });

  it('invalid UTF-8 decoded text and lone surrogates are stored and read back from the file store', async () => {
    const directory = join(root, 'utf8-sessions');
    host = await createDefaultHost({
      config: { store: { kind: 'file', path: directory }, model: { contextLength: WINDOW } },
    });
    const text = `${Buffer.from([0xc3, 0x28, 0xff, 0xfe]).toString('utf8')} \ud800 lone \udfff surrogates \u0000 nul`;
    const session = await host.session('s');
    await session.append(createMessage('user', [{ type: 'text', text }]));
    await host.dispose();
    host = await createDefaultHost({
      config: { store: { kind: 'file', path: directory }, model: { contextLength: WINDOW } },
    });
    const again = (await host.session('s')).messages()[0]?.parts[0];
    expect(again?.type === 'text' && again.text).toBe(text);
  });

  it('2,000 messages appended one by one stay appendable and compress under the window (100,000 go through the importer and the compressor below)', async () => {
    const current = await defaultHost();
    const session = await current.session('s');
    for (let index = 0; index < APPENDS; index++)
      await session.append(
        createMessage(index % 2 === 0 ? 'user' : 'assistant', [{ type: 'text', text: `message ${index}` }]),
      );
    const sent = await current.hooks.beforeRequest.promise(request(session.messages()), {
      sessionId: 's',
      contextWindow: WINDOW,
    });
    expect(current.counter.countAll(sent.messages)).toBeLessThan(WINDOW);
    expect(session.history()).toHaveLength(APPENDS);
  });

  it('a single user message larger than the whole window: the turn ends with an error and a toast that says so, and the host keeps serving', async () => {
    const simulator = await startSimulator({ contextLimit: 5000 });
    try {
      const current = await createDefaultHost({
        config: {
          store: { kind: 'memory' },
          model: { contextLength: 5000 },
          hooks: { 'anthropic-auto-compact': { initial_delay_ms: 5 } },
        },
      });
      host = current;
      const toasts: ToastEvent[] = [];
      current.hooks.toast.tapPromise('hostile-test', async (toast) => {
        toasts.push(toast);
      });
      const agent = createAgent({
        host: current,
        model: createAnthropicModel(new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 }), {
          model: 'claude-sonnet-4-6',
          contextWindow: 5000,
        }),
      });
      const outcome = await agent.send('huge', 'word '.repeat(30_000));
      expect(outcome.status).toBe('error');
      await expect
        .poll(() => toasts.find((toast) => toast.level === 'error')?.text, { timeout: 5000 })
        .toMatch(
          /^A single user message \(.+\) is about 30,0\d\d tokens by itself, larger than the model's whole window of 5,000 tokens, so no compaction can make the request fit/,
        );
      expect((await agent.send('small', 'hello')).status).toBe('done');
    } finally {
      await simulator.close();
    }
  });
});

describe('the tool-output truncator', () => {
  const counter = createTokenCounter();
  const cap = (output: ToolResultPart['output'], tokens = 2000) =>
    capToolResult({ counter }, { id: 'p1', type: 'tool-result', callId: 'c1', output }, tokens, 0.4);

  it('a 50 MB output without a single newline keeps its head and tail under the cap', () => {
    const capped = cap(`HEAD${'x'.repeat(FIFTY_MB)}TAIL`);
    const output = capped.output as string;
    expect(output.startsWith('HEAD')).toBe(true);
    expect(output.endsWith('TAIL')).toBe(true);
    expect(counter.countText(output)).toBeLessThan(2500);
    expect(capped.compacted).toMatchObject({ by: 'tool-output-truncator', originalChars: FIFTY_MB + 8 });
  });

  it('never cuts a character in half: no lone surrogate is left at either cut', () => {
    for (const shift of [0, 1, 2, 3]) {
      const capped = cap(`${'a'.repeat(shift)}${'\u{1F600}'.repeat(200_000)}`, 500);
      expect(hasNoLoneSurrogate(capped.output as string)).toBe(true);
    }
  });

  it('10,000 text blocks in one output: whole blocks kept at both ends, one marker between, under the cap (was larger than the original)', () => {
    const capped = cap(
      Array.from({ length: 10_000 }, (_, index) => ({
        type: 'text' as const,
        text: `block ${index} ${'y'.repeat(100)}`,
      })),
    );
    const texts = (capped.output as { type: string; text: string }[]).map((block) => block.text);
    expect(texts.length).toBeLessThan(10_000);
    expect(texts[0]).toMatch(/^block 0 /);
    expect(texts.at(-1)).toMatch(/^block 9999 /);
    expect(texts.join('\n')).toMatch(
      /\[\.\.\. \d[\d,]* text blocks, [\d,]+ characters .* cut from the middle of this output by ctxhost/,
    );
    expect(counter.countText(texts.join(''))).toBeLessThanOrEqual(2000);
  });
});

describe('the compressor', () => {
  const compress = (messages: Message[], contextWindow: number) =>
    createCompressor({ compression: { protectLastN: 4 } }).compress(messages, {
      sessionId: 's',
      contextWindow,
      counter: createTokenCounter(),
      reason: 'threshold',
    });
  let next = 0;
  const text = (role: Message['role'], body: string): Message => {
    const id = `h${++next}`;
    return { id, role, parts: [{ id: `${id}:0`, type: 'text', text: body }] };
  };

  it('a 50 MB tool output in the middle is pruned; the projection stays valid', async () => {
    const call: Message = {
      id: 'c',
      role: 'assistant',
      parts: [{ id: 'c:0', type: 'tool-call', callId: 'k1', name: 'read_file', input: { path: 'big.log' } }],
    };
    const result: Message = {
      id: 'r',
      role: 'tool',
      parts: [{ id: 'r:0', type: 'tool-result', callId: 'k1', output: 'z'.repeat(FIFTY_MB) }],
    };
    const messages: Message[] = [
      text('system', 'be brief'),
      text('user', 'start'),
      text('assistant', 'ok'),
      text('user', 'read it'),
      call,
      result,
      ...Array.from({ length: 6 }, (_, index) => text(index % 2 === 0 ? 'user' : 'assistant', `turn ${index}`)),
    ];
    const { messages: projection, report } = await compress(messages, 20_000);
    expect(projectionProblems(messages, projection).join('\n')).toBe('');
    expect(report.tokensAfter).toBeLessThan(20_000);
  });

  it('a single message larger than the window in the tail is kept as it is, with nothing invalid produced', async () => {
    const messages = [
      text('system', 'be brief'),
      ...Array.from({ length: 10 }, (_, index) => text(index % 2 === 0 ? 'user' : 'assistant', `turn ${index}`)),
      text('user', 'word '.repeat(50_000)),
    ];
    const { messages: projection } = await compress(messages, 5000);
    expect(projection.at(-1)).toEqual(messages.at(-1));
    expect(projectionProblems(messages, projection).join('\n')).toBe('');
  });

  it('100,000 messages compress to a valid projection under the window', async () => {
    const messages = [
      text('system', 'be brief'),
      ...Array.from({ length: 100_000 }, (_, index) => text(index % 2 === 0 ? 'user' : 'assistant', `turn ${index}`)),
    ];
    const { messages: projection, report } = await compress(messages, 50_000);
    expect(projectionProblems(messages, projection).join('\n')).toBe('');
    expect(report.tokensAfter).toBeLessThan(50_000);
  });
});
