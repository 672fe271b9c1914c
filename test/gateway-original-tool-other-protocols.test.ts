import { GoogleGenAI, type Content, type Tool } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultHost } from 'ctxhost';
import { GatewaySectionSchema, settingsFrom, startGateway, type Gateway } from '@ctxhost/gateway';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import type { MessagesRequest } from '@ctxhost/core';

// `ctxhost_original` through the gateway for OpenAI and Gemini clients, with the real SDKs against the simulator:
// offered only to a client that sends tools, once the projection shows a summary; its calls are answered by
// the gateway, which asks the upstream again, so the client sees one reply and never the tool.
const WINDOW = 6000;
const MODEL = 'gpt-5';
const TURNS = 10;

let sim: Simulator;
let gateway: Gateway;
let client: OpenAI;

beforeAll(async () => {
  sim = await startSimulator({ contextLimit: WINDOW, acceptAnyModel: true });
  gateway = await startGateway({
    settings: settingsFrom(GatewaySectionSchema.parse({ models: { [MODEL]: { context_window: WINDOW } } }), sim.url),
    host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
  });
  client = new OpenAI({ apiKey: 'caller-key', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await sim.close();
});
beforeEach(() => sim.requests.splice(0));

/** About 700 tokens a turn, each naming its turn: a few turns are past the window. */
const userText = (turn: number) =>
  `turn ${turn} marker-${turn}: ${'remember the figure 42 for the ledger '.repeat(100)}`;

/** The request as the simulator's responders read it (core's shared reading of each protocol). */
const offersOriginal = (request: MessagesRequest) =>
  (request.tools ?? []).some((tool) => tool.name === 'ctxhost_original');
const sentOriginal = (body: unknown) => JSON.stringify(body).includes('"ctxhost_original"');

/** The first covered-message handle a summary in the request names (`<summary id>#1`). */
function coveredHandle(request: MessagesRequest): string | undefined {
  return /ctxhost_original handle (\S+#)1\b/.exec(JSON.stringify(request.messages))?.[1];
}

/** The model calls `ctxhost_original` (and the client's tool) for the first request that offers it, then answers. */
function scriptOriginalCall(): { handle: () => string | undefined } {
  const call = { type: 'tool_use', id: 'call_original', name: 'ctxhost_original', input: { handle: '' } };
  const theirs = { type: 'tool_use', id: 'call_theirs', name: 'read_file', input: { path: 'a.txt' } };
  let handle: string | undefined;
  sim.script(
    {
      content: [{ type: 'text', text: 'Let me read that back.' }, call, theirs],
      when: (request) => {
        if (!offersOriginal(request) || coveredHandle(request) === undefined) return false;
        handle = `${coveredHandle(request)}1`;
        call.input.handle = handle;
        return true;
      },
    },
    { content: 'Read back.', when: (request) => JSON.stringify(request.messages).includes('of the original message') },
  );
  return { handle: () => handle };
}

const CHAT_TOOL: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};

/** One Chat Completions conversation; each reply as the client assembled it. */
async function chatConversation(stream: boolean, tools: OpenAI.Chat.ChatCompletionTool[]) {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
  const replies: { content: string | null; toolCalls: number; finish: string | null }[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    messages.push({ role: 'user', content: userText(turn) });
    const params = { model: MODEL, messages, max_completion_tokens: 200, ...(tools.length > 0 ? { tools } : {}) };
    let content: string | null;
    let toolCalls = 0;
    let finish: string | null;
    if (stream) {
      const chunks = await client.chat.completions.create({
        ...params,
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      const ids = new Set<string>();
      finish = null;
      for await (const chunk of chunks) {
        ids.add(chunk.id);
        const choice = chunk.choices[0];
        text += choice?.delta.content ?? '';
        toolCalls += choice?.delta.tool_calls?.length ?? 0;
        finish = choice?.finish_reason ?? finish;
      }
      expect(ids.size).toBe(1);
      content = text;
    } else {
      const reply = await client.chat.completions.create(params);
      const choice = reply.choices[0]!;
      content = choice.message.content;
      toolCalls = choice.message.tool_calls?.length ?? 0;
      finish = choice.finish_reason;
    }
    replies.push({ content, toolCalls, finish });
    messages.push({ role: 'assistant', content });
  }
  return replies;
}

/** The gateway's answer to the call, as the continuation request carries it. */
function answerSent(): string {
  const continued = sim.requests.find((request) => JSON.stringify(request.body).includes('call_original'));
  const messages = (continued?.body as OpenAI.Chat.ChatCompletionCreateParams).messages;
  const answer = messages.find((message) => message.role === 'tool' && message.tool_call_id === 'call_original');
  const theirs = messages.find((message) => message.role === 'tool' && message.tool_call_id === 'call_theirs');
  expect(String(theirs?.content)).toMatch(/^Not run: ctxhost_original was answered first/);
  return String(answer?.content);
}

const RESPONSES_TOOL: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'read_file',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  strict: false,
};

/** One Responses conversation (`store: false`, the history in `input`); each reply as the SDK assembled it. */
async function responsesConversation(stream: boolean, tools: OpenAI.Responses.FunctionTool[]) {
  const input: OpenAI.Responses.ResponseInputItem[] = [];
  const replies: OpenAI.Responses.Response[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    input.push({ role: 'user', content: userText(turn) });
    const params = {
      model: MODEL,
      input,
      store: false,
      max_output_tokens: 200,
      ...(tools.length > 0 ? { tools } : {}),
    };
    const reply = stream
      ? await client.responses.stream(params).finalResponse()
      : await client.responses.create(params);
    replies.push(reply);
    input.push({ role: 'assistant', content: reply.output_text });
  }
  return replies;
}

/** The texts of a Responses reply's message items. */
const messageTexts = (reply: OpenAI.Responses.Response) =>
  reply.output.flatMap((item) =>
    item.type === 'message' ? item.content.map((part) => (part.type === 'output_text' ? part.text : '')) : [],
  );

describe('ctxhost_original through the gateway for OpenAI Responses', () => {
  for (const stream of [false, true])
    it(`answers the model's call itself and the client sees one reply (${stream ? 'streamed' : 'complete'})`, async () => {
      const script = scriptOriginalCall();
      const replies = await responsesConversation(stream, [RESPONSES_TOOL]);

      expect(sim.requests.some((request) => sentOriginal(request.body))).toBe(true);
      expect(sim.requests.some((request) => !sentOriginal(request.body))).toBe(true);
      expect(script.handle()).toMatch(/#1$/);

      // The gateway answered with the original of the first covered message (and told the model the client's call was not run).
      const continued = sim.requests.find((request) => JSON.stringify(request.body).includes('call_original'));
      const items = (continued?.body as { input: { type?: string; call_id?: string; output?: string }[] }).input;
      const output = (id: string) => items.find((item) => item.type === 'function_call_output' && item.call_id === id);
      expect(output('call_original')?.output).toMatch(
        /^Lines 1-2 of 2 of the original message p-\w+:\nassistant:\nSimulated reply about: turn \d/,
      );
      expect(output('call_theirs')?.output).toMatch(/^Not run: ctxhost_original was answered first/);

      // The client saw one response: both rounds' messages, no function call.
      const answered = replies.find((reply) => reply.output_text.includes('Read back.'));
      expect(answered?.output.map((item) => item.type)).toEqual(['message', 'message']);
      expect(messageTexts(answered!)).toEqual(['Let me read that back.', 'Read back.']);
      expect(answered?.status).toBe('completed');
      expect(replies.every((reply) => reply.output.every((item) => item.type !== 'function_call'))).toBe(true);
    }, 120_000);

  it('is not offered to a client that sends no tools', async () => {
    await responsesConversation(true, []);
    expect(sim.requests.some((request) => JSON.stringify(request.body).includes('(Covered messages'))).toBe(true);
    expect(sim.requests.some((request) => sentOriginal(request.body))).toBe(false);
  }, 120_000);
});

describe('ctxhost_original through the gateway for OpenAI Chat Completions', () => {
  for (const stream of [false, true])
    it(`answers the model's call itself and the client sees one reply (${stream ? 'streamed' : 'complete'})`, async () => {
      const script = scriptOriginalCall();
      const replies = await chatConversation(stream, [CHAT_TOOL]);

      // Offered only once a summary was in the projection.
      expect(sim.requests.some((request) => sentOriginal(request.body))).toBe(true);
      expect(sim.requests.some((request) => !sentOriginal(request.body))).toBe(true);
      expect(script.handle()).toMatch(/#1$/);

      // The gateway answered with the original of the first covered message, then asked again.
      expect(answerSent()).toMatch(
        /^Lines 1-2 of 2 of the original message p-\w+:\nassistant:\nSimulated reply about: turn \d/,
      );

      // The client saw one reply: both rounds' text, no tool call, ending the turn.
      const answered = replies.find((reply) => (reply.content ?? '').includes('Read back.'));
      expect(answered).toEqual({ content: 'Let me read that back.\n\nRead back.', toolCalls: 0, finish: 'stop' });
      expect(replies.every((reply) => reply.toolCalls === 0)).toBe(true);
    }, 120_000);

  it('is not offered to a client that sends no tools', async () => {
    await chatConversation(false, []);
    expect(sim.requests.some((request) => JSON.stringify(request.body).includes('(Covered messages'))).toBe(true);
    expect(sim.requests.some((request) => sentOriginal(request.body))).toBe(false);
  }, 120_000);
});

const GEMINI_TOOL: Tool = {
  functionDeclarations: [
    {
      name: 'read_file',
      description: 'Read a file.',
      parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  ],
};

/** One generateContent conversation; each reply's text parts and function calls as the SDK read them. */
async function geminiConversation(stream: boolean, tools: Tool[]) {
  const ai = new GoogleGenAI({ apiKey: 'caller-key', httpOptions: { baseUrl: gateway.url } });
  const contents: Content[] = [];
  const replies: { texts: string[]; calls: number; finish: string | undefined }[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    contents.push({ role: 'user', parts: [{ text: userText(turn) }] });
    const params = {
      model: 'gemini-2.5-flash',
      contents,
      config: { maxOutputTokens: 200, ...(tools.length > 0 ? { tools } : {}) },
    };
    const texts: string[] = [];
    let calls = 0;
    let finish: string | undefined;
    const chunks = stream ? await ai.models.generateContentStream(params) : [await ai.models.generateContent(params)];
    for await (const chunk of chunks) {
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) {
        if (typeof part.text === 'string') texts.push(part.text);
        if (part.functionCall !== undefined) calls++;
      }
      finish = candidate?.finishReason ?? finish;
    }
    replies.push({ texts, calls, finish });
    contents.push({ role: 'model', parts: [{ text: texts.join('') }] });
  }
  return replies;
}

describe('ctxhost_original through the gateway for Gemini generateContent', () => {
  for (const stream of [false, true])
    it(`answers the model's call itself and the client sees one reply (${stream ? 'streamed' : 'complete'})`, async () => {
      const script = scriptOriginalCall();
      const replies = await geminiConversation(stream, [GEMINI_TOOL]);

      expect(sim.requests.some((request) => sentOriginal(request.body))).toBe(true);
      expect(sim.requests.some((request) => !sentOriginal(request.body))).toBe(true);
      expect(script.handle()).toMatch(/#1$/);

      // The gateway answered the call (by name: Gemini's calls carry no id here), and told the model the client's call was not run.
      const continued = sim.requests.find((request) => JSON.stringify(request.body).includes('functionResponse'));
      const parts = (continued?.body as { contents: Content[] }).contents.at(-1)?.parts ?? [];
      const response = (name: string) =>
        parts.find((part) => part.functionResponse?.name === name)?.functionResponse?.response;
      expect(String(response('ctxhost_original')?.['output'])).toMatch(
        /^Lines 1-2 of 2 of the original message p-\w+:\nassistant:\nSimulated reply about: turn \d/,
      );
      expect(String(response('read_file')?.['error'])).toMatch(/^Not run: ctxhost_original was answered first/);

      // The client saw one reply: both rounds' text, no function call.
      const answered = replies.find((reply) => reply.texts.join('').includes('Read back.'));
      expect(answered?.texts.join('')).toBe('Let me read that back.Read back.');
      if (!stream) expect(answered?.texts).toEqual(['Let me read that back.', 'Read back.']);
      expect(answered?.finish).toBe('STOP');
      expect(replies.every((reply) => reply.calls === 0)).toBe(true);
    }, 120_000);
});
