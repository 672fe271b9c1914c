import { ApiError, GoogleGenAI, type Content } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseTokenLimitError } from '@ctxhost/core';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// The simulator's Gemini API (generateContent, streamGenerateContent, countTokens), through the official @google/genai SDK.
let sim: Simulator;
let ai: GoogleGenAI;

beforeAll(async () => {
  sim = await startSimulator({ contextLimit: 4000, models: { 'gemini-small': { contextLimit: 300 } } });
  ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: sim.url } });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.faults.clear();
  sim.clearCache();
});

const MODEL = 'gemini-3-flash-preview';
const tools = [
  {
    functionDeclarations: [
      {
        name: 'run_shell_command',
        description: 'run a command',
        parametersJsonSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      },
    ],
  },
];

async function expectApiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('POST /v1beta/models/{model}:generateContent', () => {
  it('answers with text and usageMetadata', async () => {
    const reply = await ai.models.generateContent({
      model: MODEL,
      contents: 'list the files',
      config: { systemInstruction: 'You are terse.' },
    });
    expect(reply.text).toBe('Simulated reply about: list the files');
    expect(reply.candidates?.[0]?.finishReason).toBe('STOP');
    expect(reply.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
    expect(reply.usageMetadata?.totalTokenCount).toBe(
      (reply.usageMetadata?.promptTokenCount ?? 0) + (reply.usageMetadata?.candidatesTokenCount ?? 0),
    );
    const recorded = sim.requests.at(-1);
    expect(recorded?.path).toBe(`/v1/models/${MODEL}:generateContent`); // @google/genai 3 defaults to v1; Gemini CLI sends v1beta
    expect(recorded?.headers['x-goog-api-key']).toBe('test');
  });

  it('returns scripted function calls and thoughts, and accepts their responses', async () => {
    sim.script({
      content: [
        { type: 'thinking', thinking: 'I should list the directory first.', signature: 'sig-1' },
        { type: 'tool_use', id: 'ignored', name: 'run_shell_command', input: { command: 'ls' } },
      ],
    });
    const first = await ai.models.generateContent({ model: MODEL, contents: 'list the files', config: { tools } });
    const parts = first.candidates?.[0]?.content?.parts ?? [];
    expect(parts[0]).toMatchObject({
      text: 'I should list the directory first.',
      thought: true,
      thoughtSignature: 'sig-1',
    });
    expect(first.functionCalls).toEqual([{ name: 'run_shell_command', args: { command: 'ls' } }]);
    expect(first.usageMetadata?.thoughtsTokenCount).toBeGreaterThan(0);
    const history: Content[] = [
      { role: 'user', parts: [{ text: 'list the files' }] },
      { role: 'model', parts },
      { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'a.txt' } } }] },
    ];
    const second = await ai.models.generateContent({ model: MODEL, contents: history, config: { tools } });
    expect(second.text).toBe('Simulated reply about: the tool results');
  });

  it('rejects a function call turn whose calls are not all answered, in the API’s words', async () => {
    const error = await expectApiError(
      ai.models.generateContent({
        model: MODEL,
        contents: [
          { role: 'user', parts: [{ text: 'list the files' }] },
          { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }] },
          { role: 'user', parts: [{ text: 'never mind' }] },
        ],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('INVALID_ARGUMENT');
    expect(error.message).toContain(
      'the number of function response parts is equal to the number of function call parts',
    );
    expect(sim.requests.at(-1)?.rejectedForShape).toBe(true);
  });

  it('refuses a prompt over the window with the overflow text core parses', async () => {
    const error = await expectApiError(
      ai.models.generateContent({ model: 'gemini-small', contents: 'word '.repeat(2000) }),
    );
    expect(error.status).toBe(400);
    const parsed = parseTokenLimitError(error);
    expect(parsed).toMatchObject({ kind: 'context_length_exceeded', maxTokens: 300, provider: 'gemini' });
    expect(parsed?.currentTokens).toBeGreaterThan(300);
  });

  it('answers an unknown model with Gemini’s 404', async () => {
    const error = await expectApiError(ai.models.generateContent({ model: 'claude-sonnet-4-6', contents: 'hi' }));
    expect(error.status).toBe(404);
    expect(error.message).toContain('models/claude-sonnet-4-6 is not found for API version v1beta');
  });

  it('reports the implicitly cached prefix on a repeated prompt', async () => {
    const long = 'The repository holds a large amount of context. '.repeat(120);
    await ai.models.generateContent({ model: MODEL, contents: [{ role: 'user', parts: [{ text: long }] }] });
    const again = await ai.models.generateContent({
      model: MODEL,
      contents: [
        { role: 'user', parts: [{ text: long }] },
        { role: 'model', parts: [{ text: 'Noted.' }] },
        { role: 'user', parts: [{ text: 'and now?' }] },
      ],
    });
    expect(again.usageMetadata?.cachedContentTokenCount).toBeGreaterThan(1000);
    expect(sim.requests.at(-1)?.usage?.cache_read_input_tokens).toBe(again.usageMetadata?.cachedContentTokenCount);
  });
});

describe('POST /v1beta/models/{model}:streamGenerateContent?alt=sse', () => {
  it('streams text in pieces with usage on the last chunk', async () => {
    sim.script('A reply long enough to arrive in more than one piece of sixty-four characters, as a stream does.');
    const chunks = [];
    for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents: 'say something' }))
      chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe(
      'A reply long enough to arrive in more than one piece of sixty-four characters, as a stream does.',
    );
    expect(chunks.at(-1)?.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(sim.requests.at(-1)?.stream).toBe(true);
  });

  it('sends a mid-stream error after the first chunk on an sse_error fault', async () => {
    sim.faults.next(1, 'sse_error');
    const stream = await ai.models.generateContentStream({ model: MODEL, contents: 'say something' });
    const error = await (async () => {
      try {
        for await (const _chunk of stream) void _chunk;
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(String(error)).toContain('The model is overloaded');
  });
});

describe('POST /v1beta/models/{model}:countTokens', () => {
  it('counts the same prompt the window check counts', async () => {
    const counted = await ai.models.countTokens({ model: MODEL, contents: 'count these words' });
    await ai.models.generateContent({ model: MODEL, contents: 'count these words' });
    expect(counted.totalTokens).toBe(sim.requests.at(-1)?.usage?.input_tokens);
  });
});
