import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '@ctxhost/anthropic';
import type { ModelRequest, ToolDefinition } from '@ctxhost/core';
import { createOpenAIModel } from '@ctxhost/openai';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// A tool's JSON Schema, through the real SDKs and the simulator: the API refuses a custom tool without one,
// and a definition written the API's way (`input_schema`) keeps its schema instead of losing it on the way.
let simulator: Simulator | undefined;
afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

const schema = { type: 'object' as const, properties: { path: { type: 'string' } }, required: ['path'] };
const snakeCase = { name: 'read', description: 'Reads a file', input_schema: schema } as unknown as ToolDefinition;
const request = (tools: ToolDefinition[]): ModelRequest => ({
  sessionId: 's',
  model: 'claude-sonnet-4-6',
  maxTokens: 100,
  tools,
  messages: [{ id: 'u', role: 'user', parts: [{ id: 'u.0', type: 'text', text: 'read notes.txt' }] }],
});

describe('tool schemas', () => {
  it('the simulator refuses a custom tool without input_schema with the API’s words', async () => {
    simulator = await startSimulator();
    const client = new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 });
    const sent = client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'read', description: 'Reads a file' } as Anthropic.Tool],
    });
    await expect(sent).rejects.toMatchObject({
      status: 400,
      error: { error: { type: 'invalid_request_error', message: 'tools.0.custom.input_schema: Field required' } },
    });
  });

  it('createAnthropicModel sends a schema spelt input_schema', async () => {
    simulator = await startSimulator();
    const model = createAnthropicModel(new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 }), {
      model: 'claude-sonnet-4-6',
    });
    await model.create(request([snakeCase]));
    const body = simulator.requests.at(-1)?.body as { tools: { input_schema: unknown }[] };
    expect(body.tools[0]?.input_schema).toEqual(schema);
  });

  it('createOpenAIModel sends a schema spelt input_schema as the function’s parameters', async () => {
    simulator = await startSimulator();
    const model = createOpenAIModel(new OpenAI({ apiKey: 'test', baseURL: `${simulator.url}/v1`, maxRetries: 0 }), {
      model: 'gpt-4o',
    });
    await model.create({ ...request([snakeCase]), model: 'gpt-4o' });
    const body = simulator.requests.at(-1)?.body as { tools: { function: { parameters: unknown } }[] };
    expect(body.tools[0]?.function.parameters).toEqual(schema);
  });
});
