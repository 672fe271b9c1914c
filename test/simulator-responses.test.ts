import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseTokenLimitError } from '@ctxhost/core';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// The simulator's /v1/responses, through the official openai SDK's `client.responses`.
type BadRequest = InstanceType<typeof OpenAI.BadRequestError>;
let sim: Simulator;
let client: OpenAI;

beforeAll(async () => {
  sim = await startSimulator({ contextLimit: 4000, models: { 'gpt-small': { contextLimit: 600 } } });
  client = new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.faults.clear();
  sim.clearCache();
});

const tools: OpenAI.Responses.Tool[] = [
  {
    type: 'function',
    name: 'exec_command',
    description: 'run a command',
    parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
    strict: false,
  },
  { type: 'custom', name: 'apply_patch', description: 'edit files with a patch' },
];

describe('POST /v1/responses', () => {
  it('answers a response with usage, from instructions and a string input', async () => {
    const reply = await client.responses.create({
      model: 'gpt-5.5',
      instructions: 'You are terse.',
      input: 'list the files',
    });
    expect(reply.object).toBe('response');
    expect(reply.status).toBe('completed');
    expect(reply.output_text).toBe('Simulated reply about: list the files');
    expect(reply.usage?.input_tokens).toBeGreaterThan(0);
    expect(reply.usage?.input_tokens_details.cached_tokens).toBe(0);
    expect(reply.usage?.total_tokens).toBe((reply.usage?.input_tokens ?? 0) + (reply.usage?.output_tokens ?? 0));
    expect(sim.requests.at(-1)).toMatchObject({ path: '/v1/responses', status: 200 });
  });

  it('streams reasoning, a function call and a custom tool call, then accepts their outputs', async () => {
    sim.script({
      content: [
        { type: 'thinking', thinking: 'List them first.', signature: 'opaque-1' },
        { type: 'tool_use', id: 'call_ls', name: 'exec_command', input: { cmd: 'ls' } },
        { type: 'tool_use', id: 'call_patch', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
      ],
    });
    const stream = await client.responses.create({
      model: 'gpt-5.5',
      tools,
      include: ['reasoning.encrypted_content'],
      input: [{ role: 'user', content: 'list the files, then patch' }],
      stream: true,
    });
    const types: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.reasoning_summary_text.delta');
    expect(types).toContain('response.function_call_arguments.delta');
    expect(types).toContain('response.custom_tool_call_input.done');
    expect(types.at(-1)).toBe('response.completed');
    const output = completed?.output ?? [];
    expect(output.map((item) => item.type)).toEqual(['reasoning', 'function_call', 'custom_tool_call']);
    expect(output[0]).toMatchObject({ summary: [{ text: 'List them first.' }], encrypted_content: 'opaque-1' });
    expect(output[1]).toMatchObject({ call_id: 'call_ls', name: 'exec_command', arguments: '{"cmd":"ls"}' });
    expect(output[2]).toMatchObject({ call_id: 'call_patch', input: '*** Begin Patch\n*** End Patch' });
    expect(completed?.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);

    const second = await client.responses.create({
      model: 'gpt-5.5',
      tools,
      input: [
        { role: 'user', content: 'list the files, then patch' },
        ...(output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'call_ls', output: 'a.txt b.txt' },
        { type: 'custom_tool_call_output', call_id: 'call_patch', output: 'Done' },
      ],
    });
    expect(second.output_text).toMatch(/^Simulated reply about: the tool results/);
  });

  it('reports the cached prefix of a repeated long prompt, in steps of 128 tokens', async () => {
    const input = [{ role: 'user' as const, content: 'word '.repeat(3000) }];
    const first = await client.responses.create({ model: 'gpt-5.5', input });
    const second = await client.responses.create({ model: 'gpt-5.5', input });
    expect(first.usage?.input_tokens_details.cached_tokens).toBe(0);
    const cached = second.usage?.input_tokens_details.cached_tokens ?? 0;
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect(cached % 128).toBe(0);
  });

  it('refuses a function call output that answers no call, as a shape error', async () => {
    const error = await client.responses
      .create({
        model: 'gpt-5.5',
        input: [
          { role: 'user', content: 'hi' },
          { type: 'function_call_output', call_id: 'call_missing', output: 'x' },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as BadRequest).message).toContain(
      'No tool call found for function call output with call_id call_missing.',
    );
    expect(sim.requests.at(-1)?.rejectedForShape).toBe(true);
  });

  it('refuses a function call left without its output', async () => {
    const error = await client.responses
      .create({
        model: 'gpt-5.5',
        input: [
          { role: 'user', content: 'hi' },
          { type: 'function_call', call_id: 'call_open', name: 'exec_command', arguments: '{}' },
          { role: 'user', content: 'and?' },
        ],
      })
      .catch((caught: unknown) => caught);
    expect((error as BadRequest).message).toContain('No tool output found for function call call_open.');
  });

  it('answers an input over the window with context_length_exceeded, which core recognises', async () => {
    const error = await client.responses
      .create({ model: 'gpt-small', input: 'word '.repeat(4000) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as BadRequest;
    expect(bad.code).toBe('context_length_exceeded');
    expect(bad.param).toBe('input');
    expect(parseTokenLimitError(JSON.stringify(bad.error))?.kind).toBe('context_length_exceeded');
  });

  it('fails mid-stream with an error event on an sse_error fault', async () => {
    sim.faults.next(1, 'sse_error');
    const stream = await client.responses.create({ model: 'gpt-5.5', input: 'hi', stream: true });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual(['response.created']);
    expect(error).toBeInstanceOf(OpenAI.APIError);
  });

  it('refuses previous_response_id: the simulator keeps no responses', async () => {
    const error = await client.responses
      .create({ model: 'gpt-5.5', input: 'hi', previous_response_id: 'resp_123' })
      .catch((caught: unknown) => caught);
    expect((error as BadRequest).message).toContain("Previous response with id 'resp_123' not found.");
  });
});
