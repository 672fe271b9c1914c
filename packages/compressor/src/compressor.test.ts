import { createTokenCounter, type CompressContext, type Message, type Summarizer } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { summaryRole } from './assemble-projection.js';
import { COMPRESSOR } from './constants.js';
import { createCompressor } from './compressor.js';
import { summaryBudget } from './summary-budget.js';

let next = 0;
const id = () => `m${++next}`;
const text = (role: Message['role'], body: string): Message => {
  const messageId = id();
  return { id: messageId, role, parts: [{ id: `${messageId}:0`, type: 'text', text: body }] };
};
const calls = (...names: string[]): Message => {
  const messageId = id();
  return {
    id: messageId,
    role: 'assistant',
    parts: names.map((name, index) => ({
      id: `${messageId}:${index}`,
      type: 'tool-call' as const,
      callId: `${messageId}-${name}`,
      name,
      input: { command: name },
    })),
  };
};
const results = (call: Message, output = 'ok'): Message => {
  const messageId = id();
  return {
    id: messageId,
    role: 'tool',
    parts: call.parts.map((part, index) => ({
      id: `${messageId}:${index}`,
      type: 'tool-result' as const,
      callId: part.type === 'tool-call' ? part.callId : '',
      output,
    })),
  };
};

const context = (overrides: Partial<CompressContext> = {}): CompressContext => ({
  sessionId: 's',
  contextWindow: 200_000,
  counter: createTokenCounter(),
  reason: 'threshold',
  ...overrides,
});

/** Hermes's documented before/after example: 45 messages. */
function seedConversation(): Message[] {
  const conversation: Message[] = [
    text('system', 'You are a helpful assistant.'),
    text('user', 'Help me set up a FastAPI project'),
  ];
  const mkdir = calls('terminal: mkdir project');
  conversation.push(mkdir, results(mkdir, 'directory created'));
  while (conversation.length < 38) {
    const edit = calls(`write_file main_${conversation.length}.py`);
    conversation.push(edit, results(edit, `file written: main_${conversation.length}.py ${'x'.repeat(300)}`));
  }
  const pytest = calls('terminal: pytest');
  conversation.push(
    pytest,
    results(pytest, '8 passed, 2 failed\nFAILED tests/test_api.py::test_create_user - AssertionError'),
  );
  const read = calls('read_file: tests/test_api.py');
  conversation.push(
    text('user', 'Fix the failing tests'),
    read,
    results(read, 'import pytest\n...'),
    text('assistant', 'I see the issue with the test fixtures...'),
    text('user', 'Great, also add error handling'),
  );
  return conversation;
}

describe('compressor', () => {
  it('reproduces Hermes’s documented example: head, summary, tail', async () => {
    const conversation = seedConversation();
    expect(conversation).toHaveLength(45);
    const compressor = createCompressor({ compression: { protectLastN: 5, threshold: 0.5, targetRatio: 0.1 } });
    const { messages, report } = await compressor.compress(conversation, context({ contextWindow: 1000 }));
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(messages[0]?.parts[0]).toMatchObject({ text: expect.stringContaining(COMPRESSOR.systemNote) });
    expect(messages[2]?.meta?.summary).toMatchObject({ engine: 'compressor', source: 'extractive', iteration: 1 });
    expect(messages.slice(3)).toEqual(conversation.slice(40));
    expect(report).toMatchObject({
      engine: 'compressor',
      messagesBefore: 45,
      messagesAfter: 8,
      summary: { source: 'extractive' },
    });
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
    const summary = messages[2]?.parts[0]?.type === 'text' ? messages[2].parts[0].text : '';
    for (const section of ['## Goal', '## Progress', '### Done', '## Relevant Files', '## Critical Context'])
      expect(summary).toContain(section);
    expect(summary).toContain('tests/test_api.py');
    expect(summary).toContain('terminal: pytest');
  });

  it('keeps parallel tool calls with their results at both edges', async () => {
    const head = calls('a', 'b');
    const tailCall = calls('c', 'd');
    const conversation = [
      text('system', 'sys'),
      text('user', 'start'),
      head,
      results(head),
      ...Array.from({ length: 6 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `middle ${i} ${'y'.repeat(400)}`)),
      tailCall,
      results(tailCall),
      text('assistant', 'done'),
    ];
    const { messages } = await createCompressor({ compression: { protectLastN: 2 } }).compress(
      conversation,
      context({ contextWindow: 1000 }),
    );
    const ids = messages.map((message) => message.id);
    expect(ids).not.toContain(head.id);
    expect(ids.slice(-3)).toEqual([tailCall.id, conversation.at(-2)!.id, conversation.at(-1)!.id]);
    const callIds = new Set(
      messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool-call' ? [p.callId] : []))),
    );
    const resultIds = messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool-result' ? [p.callId] : [])));
    expect(resultIds.every((callId) => callIds.has(callId))).toBe(true);
  });

  it('keeps a call and its result together when an approval sits between them at the head edge (found by fuzzing)', async () => {
    const first = calls('read');
    const second = calls('write');
    const conversation = [
      text('user', 'start'),
      first,
      text('user', 'approved'),
      results(first, 'the real output'),
      second,
      results(second),
    ];
    const { messages } = await createCompressor({
      compression: { threshold: 0.1, targetRatio: 0.1, protectLastN: 1 },
    }).compress(conversation, context({ contextWindow: 200 }));
    const ids = messages.map((message) => message.id);
    expect(ids.includes(first.id)).toBe(ids.includes(conversation[3]!.id));
    expect(JSON.stringify(messages)).not.toContain(COMPRESSOR.stubResult);
  });

  it("never takes ctxhost's own notice for the newest request: the person's request, summarized away, is quoted", async () => {
    const read = calls('read notes.txt');
    const notice: Message = {
      ...text('user', '[ctxhost notice] High context usage: 88% of the window is in use.'),
      meta: { notice: 'preemptive-compaction' },
    };
    const conversation = [
      text('system', 'sys'),
      text('user', 'start'),
      ...Array.from({ length: 6 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `middle ${i} ${'y'.repeat(400)}`)),
      text('user', 'What is in notes.txt? Count its lines too.'),
      read,
      results(read, 'alpha beta gamma\n'.repeat(80)),
      notice,
    ];
    const { messages, report } = await createCompressor({ compression: { protectLastN: 2 } }).compress(
      conversation,
      context({ contextWindow: 1000, reason: 'recovery', targetTokens: 300 }),
    );
    const sent = JSON.stringify(messages);
    expect(sent).toContain('What is in notes.txt? Count its lines too.');
    expect(sent).not.toContain('verbatim in the messages after this summary');
    expect(report.notes).toContain('the newest request did not fit the tail: quoted verbatim in the summary');
  });

  it('a second compaction of the same turn quotes the request the first one carried, not an older one', async () => {
    const read = calls('read notes.txt');
    const conversation = [
      text('user', 'What is this project for? Explain in detail.'),
      text('assistant', `It is a scratch folder. ${'z'.repeat(400)}`),
      ...Array.from({ length: 6 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `middle ${i} ${'y'.repeat(400)}`)),
      text('user', 'What is in notes.txt and missing.txt? Count the lines of notes.txt too.'),
      read,
      results(read, 'alpha beta gamma\n'.repeat(80)),
    ];
    const compressor = createCompressor({ compression: { protectLastN: 2 } });
    const once = await compressor.compress(
      conversation,
      context({ contextWindow: 1000, reason: 'recovery', targetTokens: 300 }),
    );
    expect(JSON.stringify(once.messages)).toContain('What is in notes.txt and missing.txt?');
    const twice = await compressor.compress(
      once.messages,
      context({ contextWindow: 1000, reason: 'recovery', targetTokens: 150 }),
    );
    const summary = twice.messages.find((message) => message.meta?.summary !== undefined);
    const sent = JSON.stringify(summary);
    expect(sent).toContain('### Current request (verbatim');
    expect(sent).toContain('What is in notes.txt and missing.txt? Count the lines of notes.txt too.');
  });

  it('keeps at least protect_last_n messages even when the token budget allows fewer', async () => {
    const conversation = [
      text('system', 's'),
      ...Array.from({ length: 30 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `turn ${i} ${'z'.repeat(2000)}`)),
    ];
    const { messages } = await createCompressor({ compression: { protectLastN: 8, targetRatio: 0.1 } }).compress(
      conversation,
      context({ contextWindow: 2000 }),
    );
    expect(messages.slice(-8)).toEqual(conversation.slice(-8));
  });

  it('keeps more than protect_last_n when the token budget allows more', async () => {
    const conversation = [
      text('system', 's'),
      ...Array.from({ length: 30 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `short ${i}`)),
    ];
    const { messages } = await createCompressor({ compression: { protectLastN: 2 } }).compress(
      conversation,
      context({ contextWindow: 200_000 }),
    );
    expect(messages).toHaveLength(conversation.length);
  });

  it('clamps the summary budget at both ends', () => {
    expect(summaryBudget(1_000, 200_000)).toBe(2_000);
    expect(summaryBudget(40_000, 200_000)).toBe(8_000);
    expect(summaryBudget(1_000_000, 200_000)).toBe(10_000);
    expect(summaryBudget(1_000_000, 1_000_000)).toBe(12_000);
    expect(summaryBudget(1_000, 32_000)).toBe(1_600);
  });

  it.each([
    ['user', 'user', 'assistant'],
    ['assistant', 'assistant', 'user'],
    ['assistant', 'user', 'user'],
    ['system', 'user', 'user'],
    ['system', 'assistant', 'user'],
  ] as const)('between %s and %s the summary is %s', (before, after, role) => {
    expect(summaryRole(text(before, 'x'), text(after, 'y'))).toBe(role);
  });

  it('adds the system note on the first compression only, and updates the previous summary after', async () => {
    const seen: (string | undefined)[] = [];
    const summarizer: Summarizer = {
      name: 'recording',
      async summarize(request) {
        seen.push(request.previousSummary);
        return `## Goal\nbuild it\n## Progress\n### Done\n- step ${seen.length}`;
      },
    };
    const compressor = createCompressor({ compression: { protectLastN: 2 }, summarizer });
    const first = await compressor.compress(seedConversation(), context({ contextWindow: 1000 }));
    const grown = [...first.messages, ...seedConversation().slice(1, 20)];
    const second = await compressor.compress(grown, context({ contextWindow: 1000 }));
    const systemText = second.messages[0]?.parts.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
    expect(systemText.split(COMPRESSOR.systemNote)).toHaveLength(2);
    expect(seen[0]).toBeUndefined();
    expect(seen[1]).toContain('- step 1');
    expect(second.messages.find((m) => m.meta?.summary)?.meta?.summary?.iteration).toBe(2);
    expect(second.report.summary?.source).toBe('model');
  });

  it('says what a summary covers as a span that takes the previous summary whole (a list from before spans too)', async () => {
    const compressor = createCompressor({ compression: { protectLastN: 2 } });
    const conversation = seedConversation();
    const first = await compressor.compress(conversation, context({ contextWindow: 1000 }));
    const covers = first.messages.find((message) => message.meta?.summary)!.meta!.summary!.covers;
    expect(covers).toEqual({
      first: conversation[2]!.id,
      last: expect.any(String),
      count: first.report.summary!.messagesCovered,
    });
    expect(first.report.summary!.messagesCovered).toBeGreaterThan(30);
    const added = seedConversation().slice(2, 22);
    const second = await compressor.compress([...first.messages, ...added], context({ contextWindow: 1000 }));
    const again = second.messages.find((message) => message.meta?.summary)!.meta!.summary!;
    expect(again.covers).toMatchObject({ first: conversation[2]!.id });
    expect(JSON.stringify(again).length).toBeLessThan(200);
    expect(second.report.summary!.messagesCovered).toBeGreaterThan(first.report.summary!.messagesCovered);

    // A summary stored before spans existed lists every id: the next one starts from its first and counts them all.
    const legacy = first.messages.map((message) =>
      message.meta?.summary === undefined
        ? message
        : {
            ...message,
            meta: {
              summary: { ...message.meta.summary, covers: Array.from({ length: 5000 }, (_, index) => `old-${index}`) },
            },
          },
    );
    const fromLegacy = await compressor.compress([...legacy, ...added], context({ contextWindow: 1000 }));
    const inherited = fromLegacy.messages.find((message) => message.meta?.summary)!.meta!.summary!.covers;
    expect(inherited).toMatchObject({ first: 'old-0' });
    expect(fromLegacy.report.summary!.messagesCovered).toBeGreaterThan(5000);
  });

  it('chunks a middle too large for the summarizer, and falls back to an extractive summary when it fails', async () => {
    let calls = 0;
    const small: Summarizer = {
      name: 'small',
      maxInputTokens: 400,
      summarize: async (request) => `## Goal\nchunk ${++calls} of ${request.messages.length}`,
    };
    const chunked = await createCompressor({ compression: { protectLastN: 2 }, summarizer: small }).compress(
      seedConversation(),
      context({ contextWindow: 1000 }),
    );
    expect(chunked.report.summary?.source).toBe('chunked');
    expect(calls).toBeGreaterThan(1);
    const failing: Summarizer = {
      name: 'failing',
      summarize: async () => {
        throw new Error('prompt is too long: 9999 tokens > 4096 maximum');
      },
    };
    const extractive = await createCompressor({ compression: { protectLastN: 2 }, summarizer: failing }).compress(
      seedConversation(),
      context({ contextWindow: 1000 }),
    );
    expect(extractive.report.summary?.source).toBe('extractive');
    expect(extractive.report.notes?.join(' ')).toContain('summarizer failing failed');
  });

  it('compacts the same history to the same projection, summary id included (a replay is repeatable)', async () => {
    const conversation = seedConversation();
    const compress = () =>
      createCompressor({ compression: { protectLastN: 2 } }).compress(conversation, context({ contextWindow: 1000 }));
    const [first, second] = [await compress(), await compress()];
    expect(second.messages).toEqual(first.messages);
    expect(first.messages.find((message) => message.meta?.summary)?.id).toMatch(/^summary-[0-9a-f]{8}$/);
  });

  it('prunes long tool outputs outside the tail only', async () => {
    const conversation = seedConversation();
    const { report, messages } = await createCompressor({ compression: { protectLastN: 5 } }).compress(
      conversation,
      context({ contextWindow: 1000 }),
    );
    expect(report.prunedToolOutputs).toBeGreaterThan(0);
    expect(messages.slice(-5)).toEqual(conversation.slice(-5));
  });

  it('compresses at the threshold and not below it', () => {
    const compressor = createCompressor();
    const state = (promptTokens: number) => ({
      sessionId: 's',
      promptTokens,
      tokenSource: 'reported' as const,
      contextWindow: 200_000,
      messageCount: 10,
    });
    expect(compressor.shouldCompress(state(99_999))).toBe(false);
    expect(compressor.shouldCompress(state(100_000))).toBe(true);
    expect(compressor.shouldCompress({ ...state(150_000), contextWindow: undefined })).toBe(false);
  });

  it('widens a compaction that would save under 10%: the tail keeps fewer than protect_last_n messages', async () => {
    // A small window: the 20 protected messages alone hold more than the threshold, so Hermes's cut would save little.
    const window = 8_000;
    const conversation = [
      text('system', 's'),
      ...Array.from({ length: 26 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `turn ${i} ${'word '.repeat(190)}`)),
    ];
    const result = await createCompressor().compress(
      conversation,
      context({ sessionId: 'small', contextWindow: window }),
    );
    expect(result.report.tokensAfter / result.report.tokensBefore).toBeLessThan(0.9);
    expect(result.report.notes).toContainEqual(
      expect.stringMatching(/^widened to save at least 10%: the tail keeps 4 messages at least/),
    );
  });

  it('does not compact when even widened it would save under 10%, says so, and waits for the prompt to grow before trying again', async () => {
    const compressor = createCompressor();
    const window = 8_000;
    // The newest four messages hold almost everything: no cut can save a tenth.
    const conversation = [
      text('system', 's'),
      text('user', 'start'),
      text('assistant', 'ok'),
      text('user', 'more'),
      text('assistant', 'fine'),
      ...Array.from({ length: 4 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `big ${i} ${'word '.repeat(1500)}`)),
    ];
    const counter = createTokenCounter();
    const state = (messages: readonly Message[]) => ({
      sessionId: 'weak',
      promptTokens: counter.countAll(messages),
      tokenSource: 'estimated' as const,
      contextWindow: window,
      messageCount: messages.length,
    });
    expect(compressor.shouldCompress(state(conversation))).toBe(true);
    const first = await compressor.compress(conversation, context({ sessionId: 'weak', contextWindow: window }));
    expect(first.messages).toEqual(conversation);
    expect(first.report.tokensAfter).toBe(first.report.tokensBefore);
    expect(first.report.notes).toContainEqual(expect.stringMatching(/^not compacted: it would save under 10%/));
    // Said once: the next try's size, without saying "saved under 10%" a second time.
    expect(first.report.notes).toEqual([
      expect.stringMatching(/^not compacted: it would save under 10%/),
      expect.stringMatching(
        /^the next threshold compaction of this session waits until the prompt reaches about [\d,]+ tokens$/,
      ),
    ]);
    const nextTurn = [...conversation, text('user', `one more ${'word '.repeat(100)}`)];
    expect(compressor.shouldCompress(state(nextTurn))).toBe(false);
    const muchLater = [
      ...nextTurn,
      ...Array.from({ length: 6 }, (_, i) => text(i % 2 ? 'user' : 'assistant', `later ${i} ${'word '.repeat(190)}`)),
    ];
    expect(counter.countAll(muchLater) - counter.countAll(conversation)).toBeGreaterThanOrEqual(
      window * COMPRESSOR.ineffectiveRegrowth,
    );
    expect(compressor.shouldCompress(state(muchLater))).toBe(true);
  });

  it('answers no right after a compaction that left the prompt over the threshold, whatever asked for it', async () => {
    const window = 8_000;
    // A long middle worth summarizing, and a newest exchange that alone holds more than half the window.
    const conversation = [
      text('system', 's'),
      text('user', 'start'),
      text('assistant', 'ok'),
      ...Array.from({ length: 10 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `middle ${i} ${'word '.repeat(150)}`)),
      text('user', `big question ${'word '.repeat(2_000)}`),
      text('assistant', `big answer ${'word '.repeat(2_000)}`),
    ];
    const counter = createTokenCounter();
    const state = (sessionId: string, promptTokens: number) => ({
      sessionId,
      promptTokens,
      tokenSource: 'estimated' as const,
      contextWindow: window,
      messageCount: conversation.length,
    });
    for (const reason of ['threshold', 'hygiene'] as const) {
      const compressor = createCompressor({ compression: { protectLastN: 2 } });
      const sessionId = `over-${reason}`;
      if (reason === 'threshold')
        expect(compressor.shouldCompress(state(sessionId, counter.countAll(conversation)))).toBe(true);
      const result = await compressor.compress(conversation, context({ sessionId, contextWindow: window, reason }));
      expect(result.report.tokensAfter).toBeLessThan(result.report.tokensBefore * 0.9);
      expect(result.report.tokensAfter).toBeGreaterThanOrEqual(0.5 * window);
      expect(compressor.shouldCompress(state(sessionId, result.report.tokensAfter + 100))).toBe(false);
      expect(compressor.shouldCompress(state(sessionId, result.report.tokensAfter + 0.1 * window))).toBe(true);
    }
  });

  it('the extractive summary points to the newest request the tail keeps instead of repeating it', async () => {
    const request = 'Please rename the parseConfig helper to loadConfig everywhere';
    const conversation = [
      text('system', 's'),
      text('user', 'start the refactor'),
      text('assistant', 'ok'),
      ...Array.from({ length: 12 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `step ${i} ${'word '.repeat(300)}`)),
      text('user', request),
      text('assistant', 'renaming now'),
    ];
    const result = await createCompressor({ compression: { protectLastN: 2 } }).compress(
      conversation,
      context({ contextWindow: 8_000 }),
    );
    const summary = result.messages.find((message) => message.meta?.summary !== undefined);
    const summaryText = summary?.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n') ?? '';
    expect(result.messages.at(-2)?.parts[0]).toMatchObject({ text: request });
    expect(summaryText).not.toContain(request);
    expect(summaryText).toContain('the newest user request, verbatim in the messages after this summary');
  });
});
