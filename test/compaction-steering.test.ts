import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAnthropicModel, createAnthropicSummarizer, type AgentTool } from '@ctxhost/anthropic';
import { compressorEngineFactory } from '@ctxhost/compressor';
import {
  createHost,
  coveredIds,
  createMessage,
  ORIGINAL_TOOL_NAME,
  readOriginal,
  type CompactionFailedEvent,
  type CompactionStartedEvent,
  type Host,
  type Message,
  type Summarizer,
  type SummaryRequest,
} from '@ctxhost/core';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

let sim: Simulator | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  await sim?.close();
  host = undefined;
  sim = undefined;
});

const recording = (): Summarizer & { requests: SummaryRequest[] } => {
  const requests: SummaryRequest[] = [];
  return {
    name: 'recording',
    requests,
    summarize: async (request) => {
      requests.push(request);
      return '## Goal\nthe goal\n## Progress\n### Done\n- things';
    },
  };
};

async function sessionWithHistory(current: Host, id = 's'): Promise<void> {
  const session = await current.session(id);
  await session.append(createMessage('system', [{ type: 'text', text: 'You are a coding agent.' }]));
  await session.append(createMessage('user', [{ type: 'text', text: 'Port the billing module.' }]));
  for (let i = 0; i < 24; i++)
    await session.append(
      createMessage(i % 2 ? 'assistant' : 'user', [
        { type: 'text', text: `turn ${i} ${'words and more words '.repeat(40)}` },
      ]),
    );
}

const toolNames = (body: unknown) =>
  ((body as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((tool) => tool.name);

function hostWith(summarizer: Summarizer): Host {
  host = createHost({
    config: { model: { contextLength: 8_000 }, compression: { protectLastN: 4 } },
    fallbackEngine: { name: 'compressor', factory: compressorEngineFactory },
    summarizer,
  });
  return host;
}

describe('compact(sessionId, { focus, instructions }) and the compaction hooks', () => {
  it('passes the focus, the instructions and what compaction.before adds to the summarizer; reports started and completed with durations, kept in the store', async () => {
    const summarizer = recording();
    const current = hostWith(summarizer);
    const started: CompactionStartedEvent[] = [];
    let duration: number | undefined;
    current.hooks.compactionBefore.tap('policy', (plan) => ({
      ...plan,
      instructions: [...plan.instructions, 'Keep every SQL statement verbatim.'],
    }));
    current.hooks.compactionStarted.tapPromise('t', async (event) => {
      started.push(event);
    });
    current.hooks.compactionCompleted.tapPromise('t', async ({ report }) => {
      duration = report.durationMs;
    });
    await sessionWithHistory(current);
    const outcome = await current.compact('s', {
      focus: 'the invoice rounding bug',
      instructions: 'Name the failing test.',
    });
    expect(outcome.status).toBe('completed');
    const instructions = summarizer.requests[0]!.instructions;
    expect(instructions).toContain('Focus the summary on: the invoice rounding bug.');
    expect(instructions).toContain('Name the failing test.');
    expect(instructions).toContain('Keep every SQL statement verbatim.');
    expect(started).toMatchObject([
      { sessionId: 's', reason: 'manual', engine: 'compressor', focus: 'the invoice rounding bug' },
    ]);
    expect(duration).toBeGreaterThanOrEqual(0);
    const types = (await current.store.read('s')).map((event) => event.type);
    expect(types.slice(-2)).toEqual(['compaction.started', 'compaction.applied']);
  });

  it('a veto from compaction.before stops the compaction: compaction.failed says who and why, the session is unchanged', async () => {
    const summarizer = recording();
    const current = hostWith(summarizer);
    const failed: CompactionFailedEvent[] = [];
    current.hooks.compactionBefore.tap('guard', (plan) => ({
      ...plan,
      veto: { by: 'guard', why: 'a deploy is running' },
    }));
    current.hooks.compactionFailed.tapPromise('t', async (event) => {
      failed.push(event);
    });
    await sessionWithHistory(current);
    const before = (await current.session('s')).messages().slice();
    expect(await current.compact('s')).toEqual({ status: 'vetoed', by: 'guard', why: 'a deploy is running' });
    expect(failed).toMatchObject([
      { sessionId: 's', vetoed: true, error: 'vetoed by guard: a deploy is running', durationMs: 0 },
    ]);
    expect((await current.session('s')).messages()).toEqual(before);
    expect(summarizer.requests).toHaveLength(0);
    expect((await current.store.read('s')).at(-1)).toMatchObject({ type: 'compaction.failed', vetoed: true });
  });

  it('an engine that throws is reported as compaction.failed with the reason and a duration, and the session is unchanged', async () => {
    host = createHost({
      config: { model: { contextLength: 8_000 } },
      fallbackEngine: {
        name: 'broken',
        factory: () => ({
          name: 'broken',
          shouldCompress: () => true,
          compress: async () => {
            throw new Error('disk full');
          },
        }),
      },
    });
    const failed: CompactionFailedEvent[] = [];
    host.hooks.compactionFailed.tapPromise('t', async (event) => {
      failed.push(event);
    });
    await sessionWithHistory(host);
    expect(await host.compact('s')).toEqual({ status: 'failed', error: 'engine broken threw: disk full' });
    expect(failed[0]).toMatchObject({ engine: 'broken', error: 'engine broken threw: disk full', reason: 'manual' });
    expect(failed[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect((await host.store.read('s')).map((event) => event.type).slice(-2)).toEqual([
      'compaction.started',
      'compaction.failed',
    ]);
  });
});

describe('ctxhost_original: originals on demand', () => {
  it('the agent offers it by default; the model reads back a summarized tool output by the handle the summary names', async () => {
    sim = await startSimulator();
    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    host = createHost({
      config: { model: { contextLength: 8_000 }, compression: { protectLastN: 4 } },
      fallbackEngine: { name: 'compressor', factory: compressorEngineFactory },
      summarizer: createAnthropicSummarizer(client, { model: 'claude-haiku-4-5' }),
    });
    const log = Array.from({ length: 300 }, (_, i) => `log line ${i}`).join('\n');
    const readLog: AgentTool = {
      definition: { name: 'read_log', description: 'Read the log', inputSchema: { type: 'object', properties: {} } },
      run: async () => log,
    };
    const agent = createAgent({
      host,
      model: createAnthropicModel(client, { model: 'claude-sonnet-4-6', contextWindow: 8_000 }),
      tools: [readLog],
      system: 'You are helpful.',
    });
    sim.script(
      { content: [{ type: 'tool_use', id: 'toolu_log', name: 'read_log', input: {} }] },
      { content: 'Read it.' },
    );
    await agent.send('s', 'Read the log.');
    for (let i = 0; i < 8; i++) {
      sim.script({ content: `answer ${i}` });
      await agent.send('s', `question ${i} ${'padding words '.repeat(30)}`);
    }
    expect(toolNames(sim.requests.at(-1)?.body)).not.toContain(ORIGINAL_TOOL_NAME);
    expect((await host.compact('s')).status).toBe('completed');
    const session = await host.session('s');
    const summary = session.messages().find((message: Message) => message.meta?.summary !== undefined)!;
    const covers = coveredIds(summary.meta!.summary!.covers, session.history());
    expect(JSON.stringify(summary)).toContain(
      `ctxhost_original handle ${summary.id}#1 … ${summary.id}#${covers.length}, oldest first.`,
    );
    const logMessage = session
      .history()
      .find((message) => message.parts.some((part) => part.type === 'tool-result' && part.callId === 'toolu_log'))!;
    const handle = `${summary.id}#${covers.indexOf(logMessage.id) + 1}`;
    expect(covers).toContain(logMessage.id);

    sim.script(
      {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_back',
            name: ORIGINAL_TOOL_NAME,
            input: { handle, fromLine: 101, toLine: 102 },
          },
        ],
      },
      { content: 'Found it.' },
    );
    await agent.send('s', 'What was on line 100 of the log?');
    expect(toolNames(sim.requests.at(-1)?.body)).toContain(ORIGINAL_TOOL_NAME);
    const answer = session
      .messages()
      .flatMap((message) => message.parts)
      .find((part) => part.type === 'tool-result' && part.callId === 'toolu_back');
    expect(answer).toMatchObject({
      output: `Lines 101-102 of 301 of the original message ${logMessage.id}:\nlog line 99\nlog line 100`,
    });

    const covered = await readOriginal(session, { handle: `${summary.id}#1` });
    expect(covered.output).toContain(`of the original message ${covers[0]}:`);
    expect(await readOriginal(session, { handle: 'nope' })).toMatchObject({ isError: true });
  });
});
