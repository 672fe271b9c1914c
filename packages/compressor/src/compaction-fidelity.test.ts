import {
  CtxhostError,
  createTokenCounter,
  type CompressContext,
  type Message,
  type Summarizer,
  type SummaryRequest,
} from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { createCompressor } from './compressor.js';
import { COMPRESSOR_ERROR_CODES } from './errors.js';

let next = 0;
const text = (role: Message['role'], body: string): Message => {
  const id = `f${++next}`;
  return { id, role, parts: [{ id: `${id}:0`, type: 'text', text: body }] };
};
const call = (name: string, input: Record<string, string | object>): Message => {
  const id = `f${++next}`;
  return {
    id,
    role: 'assistant',
    parts: [{ id: `${id}:0`, type: 'tool-call', callId: `${id}-c`, name, input: input as never }],
  };
};
const result = (of: Message, output: string, isError = false): Message => {
  const id = `f${++next}`;
  const part = of.parts[0]!;
  return {
    id,
    role: 'tool',
    parts: [
      {
        id: `${id}:0`,
        type: 'tool-result',
        callId: part.type === 'tool-call' ? part.callId : '',
        output,
        ...(isError ? { isError } : {}),
      },
    ],
  };
};
const pair = (name: string, input: Record<string, string | object>, output: string): Message[] => {
  const c = call(name, input);
  return [c, result(c, output)];
};
const bodyOf = (message: Message | undefined) =>
  message?.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n') ?? '';
const summaryOf = (messages: readonly Message[]) =>
  bodyOf(messages.find((message) => message.meta?.summary !== undefined));
const context = (overrides: Partial<CompressContext> = {}): CompressContext => ({
  sessionId: 's',
  contextWindow: 16_000,
  counter: createTokenCounter(),
  reason: 'threshold',
  ...overrides,
});
const filler = (n: number) => `${'lorem ipsum dolor sit amet '.repeat(n)}`;

const recording = (
  replies: (request: SummaryRequest) => Promise<string> | string = () =>
    '## Goal\nthe goal\n## Progress\n### Done\n- something',
): Summarizer & { requests: SummaryRequest[] } => {
  const requests: SummaryRequest[] = [];
  return {
    name: 'recording',
    requests,
    summarize: async (request) => {
      requests.push(request);
      return replies(request);
    },
  };
};

/** A task, old exchanges, then the newest request followed by many tool calls (more than protect_last_n). */
function sessionWithBusyLastTurn(toolPairs: number, outputSize = 20): Message[] {
  const conversation: Message[] = [
    text('system', 'You are a coding agent.'),
    text('user', 'TASK: port the billing module to TypeScript'),
    text('assistant', 'Starting.'),
  ];
  for (let i = 0; i < 12; i++)
    conversation.push(
      text('user', `old request ${i} ${filler(30)}`),
      ...pair('bash', { command: `make step${i}` }, filler(40)),
      text('assistant', `done ${i}`),
    );
  conversation.push(text('user', 'NEWEST: now fix src/billing/invoice.ts so the totals round half-even'));
  for (let i = 0; i < toolPairs; i++)
    conversation.push(...pair('read_file', { file_path: `src/billing/part${i}.ts` }, filler(outputSize)));
  return conversation;
}

describe('the newest request and the task survive compaction', () => {
  it('keeps the newest request in the tail however many tool messages follow it', async () => {
    const conversation = sessionWithBusyLastTurn(30);
    const newest = conversation.find((message) => bodyOf(message).startsWith('NEWEST'))!;
    const { messages } = await createCompressor({ compression: { protectLastN: 20 } }).compress(
      conversation,
      context(),
    );
    expect(messages).toContainEqual(newest);
    expect(messages.at(-1)).toEqual(conversation.at(-1));
    expect(messages.some((message) => bodyOf(message).includes('TASK: port the billing module'))).toBe(true);
  });

  it('quotes the newest request verbatim in a Current request section when it and what follows cannot fit', async () => {
    const conversation = sessionWithBusyLastTurn(40, 120);
    const newest = conversation.find((message) => bodyOf(message).startsWith('NEWEST'))!;
    const { messages, report } = await createCompressor({ compression: { protectLastN: 6 } }).compress(
      conversation,
      context({ contextWindow: 8_000 }),
    );
    expect(messages.map((message) => message.id)).not.toContain(newest.id);
    const summary = summaryOf(messages);
    expect(summary).toMatch(
      /### Current request[^\n]*\nNEWEST: now fix src\/billing\/invoice\.ts so the totals round half-even/,
    );
    expect(report.notes).toContain('the newest request did not fit the tail: quoted verbatim in the summary');
  });

  it('quotes the task when the first request is summarized away (no system message, so it is not in the head)', async () => {
    const conversation: Message[] = [
      text('assistant', 'Hello, what shall we do?'),
      text('assistant', 'I can edit files.'),
      text('assistant', 'Waiting.'),
      text('user', 'TASK: write the migration for orders'),
      ...sessionWithBusyLastTurn(2).slice(3),
    ];
    const { messages } = await createCompressor({ compression: { protectLastN: 4 } }).compress(
      conversation,
      context({ contextWindow: 4_000 }),
    );
    const summary = summaryOf(messages);
    expect(summary).toContain("### Task (the user's first request, verbatim)\nTASK: write the migration for orders");
  });
});

describe('secrets never reach the summarizer or a summary', () => {
  const secrets = {
    user: 'sk-ant-api03-UserPastedKey0123456789abcdefXYZ',
    input: 'ghp_ToolInputToken0123456789abcdefghijklmn',
    output: 'AKIAIOSFODNN7EXAMPLE',
    password: 'hunter2-very-secret',
  };
  const conversation = (): Message[] => [
    text('system', 'sys'),
    text('user', 'start'),
    text('assistant', 'ok'),
    text('user', `use the key ${secrets.user} for the API ${filler(40)}`),
    ...pair(
      'bash',
      {
        command: `curl -H "Authorization: token ${secrets.input}" https://api.github.com`,
        env: { DB_PASSWORD: secrets.password },
      },
      filler(10),
    ),
    ...pair(
      'bash',
      { command: 'cat .env' },
      `AWS_ACCESS_KEY_ID=${secrets.output}\nDATABASE_URL=postgres://app:${secrets.password}@db:5432/app\n${filler(40)}`,
    ),
    ...Array.from({ length: 8 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `later ${i} ${filler(30)}`)),
    text('user', 'carry on'),
  ];

  it.each(['extractive', 'model'] as const)('in the %s path', async (path) => {
    const summarizer = recording((request) => `## Goal\n${JSON.stringify(request.messages)}`);
    const compressor = createCompressor({
      compression: { protectLastN: 2 },
      ...(path === 'model' ? { summarizer } : {}),
    });
    const { messages, report } = await compressor.compress(conversation(), context({ contextWindow: 4_000 }));
    expect(report.summary?.source).toBe(path);
    const summary = summaryOf(messages);
    for (const secret of Object.values(secrets)) {
      expect(summary).not.toContain(secret);
      expect(JSON.stringify(summarizer.requests)).not.toContain(secret);
    }
    expect(summary).toContain('[REDACTED:');
    if (path === 'model') expect(summarizer.requests).toHaveLength(1);
  });

  it('redacts what a summarizer writes even when it invents a secret', async () => {
    const summarizer = recording(() => '## Goal\nuse sk-proj-InventedByTheModel0123456789abcd');
    const { messages } = await createCompressor({ compression: { protectLastN: 2 }, summarizer }).compress(
      conversation(),
      context({ contextWindow: 4_000 }),
    );
    expect(summaryOf(messages)).toContain('[REDACTED:openai-key]');
    expect(summaryOf(messages)).not.toContain('InventedByTheModel');
  });
});

describe('summarizer failures and windows', () => {
  const longSession = () => [
    text('system', 's'),
    text('user', 'task'),
    text('assistant', 'ok'),
    ...Array.from({ length: 20 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `turn ${i} ${filler(40)}`)),
  ];

  it('rests after failures: called once, then the extractive summary for the cooldown, then tried again', async () => {
    let calls = 0;
    const failing: Summarizer = {
      name: 'broken',
      summarize: async () => {
        calls++;
        throw new Error('503 overloaded');
      },
    };
    const compressor = createCompressor({
      compression: { protectLastN: 2, summarizerCooldownCompactions: 2, summarizerCooldownMinutes: 60 },
      summarizer: failing,
    });
    const first = await compressor.compress(longSession(), context({ reason: 'manual' }));
    const second = await compressor.compress(longSession(), context({ reason: 'manual' }));
    expect(calls).toBe(1);
    expect(first.report.notes?.join(' ')).toContain('summarizer broken failed (503 overloaded)');
    expect(second.report.summary?.source).toBe('extractive');
    expect(second.report.notes?.join(' ')).toMatch(/summarizer broken resting after a failure \(1 more compaction/);
    await compressor.compress(longSession(), context({ reason: 'manual' }));
    expect(calls).toBe(1);
    await compressor.compress(longSession(), context({ reason: 'manual' }));
    expect(calls).toBe(2);
  });

  it('ends the rest when the minutes have passed', async () => {
    let now = 0;
    let calls = 0;
    const failing: Summarizer = {
      name: 'broken',
      summarize: async () => {
        calls++;
        throw new Error('down');
      },
    };
    const compressor = createCompressor({
      compression: { protectLastN: 2, summarizerCooldownMinutes: 1 },
      summarizer: failing,
      now: () => now,
    });
    await compressor.compress(longSession(), context({ reason: 'manual' }));
    now = 61_000;
    await compressor.compress(longSession(), context({ reason: 'manual' }));
    expect(calls).toBe(2);
  });

  it('chunks by the summarizer window so every call fits it, instructions, running summary and reply included', async () => {
    const counter = createTokenCounter();
    const window = 3_000;
    const summarizer = recording((request) => `## Goal\nmerged ${request.messages.length}`);
    const small = Object.assign(summarizer, { maxInputTokens: window });
    const { report } = await createCompressor({ compression: { protectLastN: 2 }, summarizer: small }).compress(
      longSession().concat(longSession().slice(3)),
      context({ contextWindow: 20_000, reason: 'manual' }),
    );
    expect(report.summary?.source).toBe('chunked');
    for (const request of small.requests) {
      const used =
        counter.countText(request.instructions) +
        counter.countText(request.previousSummary ?? '') +
        counter.countAll(request.messages) +
        request.maxOutputTokens;
      expect(used).toBeLessThanOrEqual(window);
    }
  });

  it('sends the previous summary once on re-compression: as the summary to update, not inside the span', async () => {
    const summarizer = recording(
      (request) => `## Goal\nthe goal\n## Progress\n### Done\n- round ${request.previousSummary === undefined ? 1 : 2}`,
    );
    const compressor = createCompressor({ compression: { protectLastN: 2 }, summarizer });
    const first = await compressor.compress(longSession(), context({ reason: 'manual' }));
    const grown = [...first.messages, ...longSession().slice(3)];
    await compressor.compress(grown, context({ reason: 'manual' }));
    const second = summarizer.requests[1]!;
    expect(second.previousSummary).toContain('- round 1');
    expect(second.previousSummary).not.toContain('## Working state');
    expect(JSON.stringify(second.messages)).not.toContain('round 1');
    expect(second.instructions).toContain('Update the previous summary');
  });
});

describe('boundaries and options', () => {
  it('never prunes a tool output inside the protected tail when head and tail overlap', async () => {
    const big = 'x'.repeat(2_000);
    const conversation = [
      text('user', 'task'),
      ...pair('read_file', { file_path: 'a.ts' }, big),
      ...pair('read_file', { file_path: 'b.ts' }, big),
    ];
    const { messages } = await createCompressor({ compression: { protectLastN: 4 } }).compress(
      conversation,
      context({ contextWindow: 2_000 }),
    );
    expect(messages.slice(-4)).toEqual(conversation.slice(-4));
  });

  it('names the part in the marker of a pruned output, so the model can read it back with ctxhost_original', async () => {
    const read = pair('read_file', { file_path: 'big.ts' }, filler(60));
    const conversation = [
      text('system', 's'),
      text('user', 'task'),
      text('assistant', 'ok'),
      ...Array.from({ length: 4 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `old ${i} ${filler(40)}`)),
      ...read,
      ...Array.from({ length: 4 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `t${i}`)),
    ];
    const { messages } = await createCompressor({ compression: { protectLastN: 4 } }).compress(
      conversation,
      context({ contextWindow: 2_000 }),
    );
    const partId = read[1]!.parts[0]!.id;
    expect(JSON.stringify(messages)).toContain(
      `[Old tool output cleared to save context space] (ctxhost_original ${partId})`,
    );
  });

  it('keeps a tail cut right after a complete tool group aligned', async () => {
    const conversation = [
      text('system', 's'),
      text('user', 'task'),
      text('assistant', 'ok'),
      ...Array.from({ length: 10 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `t${i} ${filler(40)}`)),
      ...pair('bash', { command: 'ls' }, 'a.ts'),
      text('user', 'next'),
      text('assistant', 'fine'),
    ];
    const { messages } = await createCompressor({ compression: { protectLastN: 2 } }).compress(
      conversation,
      context({ contextWindow: 2_000 }),
    );
    const callIds = new Set(
      messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool-call' ? [p.callId] : []))),
    );
    const resultIds = messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool-result' ? [p.callId] : [])));
    expect(resultIds.every((id) => callIds.has(id))).toBe(true);
    expect(JSON.stringify(messages)).not.toContain('[Result not kept');
  });

  it('gives the summary the user role when no conversation turn precedes it', async () => {
    const conversation = [
      text('system', 's'),
      ...Array.from({ length: 12 }, (_, i) => text(i % 2 ? 'user' : 'assistant', `t${i} ${filler(40)}`)),
    ];
    const { messages } = await createCompressor({ compression: { protectLastN: 2 } }).compress(
      conversation,
      context({ contextWindow: 2_000 }),
    );
    const summary = messages.find((message) => message.meta?.summary !== undefined)!;
    expect(summary.role).toBe('user');
  });

  it.each([
    [{ targetRatio: 0.05 }, 'compression.targetRatio: a number between 0.1 and 0.8'],
    [{ protectLastN: 0 }, 'compression.protectLastN'],
    [{ protectLastn: 3 } as never, 'protectLastn'],
  ])('rejects options the config file rejects: %j', (compression, message) => {
    let thrown: unknown;
    try {
      createCompressor({ compression });
    } catch (error) {
      thrown = error;
    }
    expect(CtxhostError.hasCode(thrown, COMPRESSOR_ERROR_CODES.optionsInvalid)).toBe(true);
    expect((thrown as Error).message).toContain(message);
  });
});

describe('continuity: the working state is re-injected beside the summary', () => {
  it('carries the latest todo list and the files touched most recently when their calls were summarized away', async () => {
    const conversation: Message[] = [text('system', 's'), text('user', 'task'), text('assistant', 'ok')];
    conversation.push(...pair('TodoWrite', { todos: [{ content: 'old plan', status: 'pending' }] }, 'ok'));
    conversation.push(
      ...pair(
        'TodoWrite',
        {
          todos: [
            { content: 'write parser', status: 'completed' },
            { content: 'wire CLI', status: 'in_progress' },
          ],
        },
        'ok',
      ),
    );
    for (const path of ['src/a.ts', 'src/b.ts', 'src/c.ts'])
      conversation.push(...pair('edit_file', { file_path: path }, filler(30)));
    conversation.push(
      ...Array.from({ length: 6 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `t${i} ${filler(40)}`)),
    );
    const { messages } = await createCompressor({ compression: { protectLastN: 2 } }).compress(
      conversation,
      context({ contextWindow: 2_000 }),
    );
    const summary = summaryOf(messages);
    expect(summary).toContain('### Todo list (latest)\n- [x] write parser\n- [ ] wire CLI (in progress)');
    expect(summary).not.toContain('old plan\n');
    expect(summary).toMatch(/### Files touched most recently\n- src\/c\.ts\n- src\/b\.ts\n- src\/a\.ts/);
  });

  it('adds beside a model summary the constraints, failed commands and paths it did not name', async () => {
    const summarizer = recording(() => '## Goal\nport it');
    const conversation: Message[] = [
      text('system', 's'),
      text('user', 'task'),
      text('assistant', 'ok'),
      text('user', `You must never touch vendor/legacy/. ${filler(20)}`),
    ];
    conversation.push(
      ...pair('bash', { command: 'pnpm test --filter billing' }, 'FAILED tests/invoice.test.ts\nError: expected 10.00'),
    );
    conversation.push(...pair('read_file', { file_path: 'src/billing/invoice.ts' }, filler(30)));
    conversation.push(
      ...Array.from({ length: 6 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `t${i} ${filler(40)}`)),
    );
    const { messages } = await createCompressor({ compression: { protectLastN: 2 }, summarizer }).compress(
      conversation,
      context({ contextWindow: 2_000 }),
    );
    const summary = summaryOf(messages);
    expect(summary).toContain('### Also in the summarized turns (not named in the summary above)');
    expect(summary).toContain('- user constraint: You must never touch vendor/legacy/.');
    expect(summary).toContain('- failed: bash: pnpm test --filter billing');
    expect(summary).toMatch(/- files: .*src\/billing\/invoice\.ts/);
  });

  it('names the newest request as the one open ask in the update instruction', async () => {
    const summarizer = recording();
    const conversation = sessionWithBusyLastTurn(3);
    await createCompressor({ compression: { protectLastN: 4 }, summarizer }).compress(
      conversation,
      context({ contextWindow: 4_000 }),
    );
    expect(summarizer.requests[0]!.instructions).toContain('<current-request>\nNEWEST: now fix src/billing/invoice.ts');
    expect(summarizer.requests[0]!.instructions).toContain('never under Next Steps');
  });
});
