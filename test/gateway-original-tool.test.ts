import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultHost } from 'ctxhost';
import { GatewaySectionSchema, settingsFrom, startGateway, type Gateway } from '@ctxhost/gateway';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import type { MessagesRequest } from '@ctxhost/core';

// `ctxhost_original` through the gateway, with the real Anthropic SDK against the simulator: offered only to
// a client that sends tools and only once the projection shows a summary; its calls are answered by the
// gateway, which asks the upstream again, so the client sees one reply and never the tool.
const WINDOW = 6000;
const MODEL = 'claude-sonnet-4-6';
const CLIENT_TOOL: Anthropic.Tool = {
  name: 'read_file',
  description: 'Read a file.',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

let sim: Simulator;
let gateway: Gateway;

beforeAll(async () => {
  sim = await startSimulator({ contextLimit: WINDOW, acceptAnyModel: true });
  gateway = await startGateway({
    settings: settingsFrom(GatewaySectionSchema.parse({ models: { [MODEL]: { context_window: WINDOW } } }), sim.url),
    host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
  });
});
afterAll(async () => {
  await gateway.close();
  await sim.close();
});
beforeEach(() => sim.requests.splice(0));

/** About 700 tokens a turn, each naming its turn: a few turns are past the window. */
const userText = (turn: number) =>
  `turn ${turn} marker-${turn}: ${'remember the figure 42 for the ledger '.repeat(100)}`;

const offersOriginal = (body: unknown) =>
  ((body as MessagesRequest | undefined)?.tools ?? []).some((tool) => tool.name === 'ctxhost_original');

/** The first covered-message handle a summary in the request names (`<summary id>#1`). */
function coveredHandle(request: MessagesRequest): string | undefined {
  return /ctxhost_original handle (\S+#)1\b/.exec(JSON.stringify(request.messages))?.[1];
}

/**
 * Scripts the model's call of `ctxhost_original` on the first covered message, for the first request that
 * offers the tool; then an answer that quotes what the gateway gave back.
 */
function scriptOriginalCall(): { handle: () => string | undefined } {
  const call = { type: 'tool_use', id: 'toolu_original', name: 'ctxhost_original', input: { handle: '' } };
  let handle: string | undefined;
  sim.script(
    {
      content: [{ type: 'text', text: 'Let me read that back.' }, call],
      when: (request) => {
        if (!offersOriginal(request)) return false;
        handle = `${coveredHandle(request)}1`;
        call.input.handle = handle;
        return coveredHandle(request) !== undefined;
      },
    },
    { content: 'Read back.', when: (request) => JSON.stringify(request.messages).includes('toolu_original') },
  );
  return { handle: () => handle };
}

async function conversation(
  client: Anthropic,
  stream: boolean,
  tools: Anthropic.Tool[],
  turns: number,
): Promise<Anthropic.Message[]> {
  const messages: Anthropic.MessageParam[] = [];
  const replies: Anthropic.Message[] = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: 'user', content: userText(turn) });
    const params = { model: MODEL, max_tokens: 200, messages, ...(tools.length > 0 ? { tools } : {}) };
    const reply = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
    replies.push(reply);
    messages.push({ role: 'assistant', content: reply.content });
  }
  return replies;
}

describe('ctxhost_original through the gateway', () => {
  for (const stream of [false, true])
    it(`answers the model's call itself and the client sees one reply (${stream ? 'streamed' : 'complete'})`, async () => {
      const script = scriptOriginalCall();
      const client = new Anthropic({ apiKey: 'caller-key', baseURL: gateway.url, maxRetries: 0 });
      const replies = await conversation(client, stream, [CLIENT_TOOL], 10);

      // The tool was offered only once a summary was in the projection, and never to the client.
      const offered = sim.requests.filter((request) => offersOriginal(request.body));
      expect(offered.length).toBeGreaterThan(0);
      expect(sim.requests.some((request) => !offersOriginal(request.body))).toBe(true);
      expect(script.handle()).toMatch(/#1$/);

      // The gateway answered the call with the original of the first covered message, then asked again.
      const continued = sim.requests.find((request) => JSON.stringify(request.body).includes('toolu_original'));
      const last = (continued?.body as MessagesRequest).messages.at(-1)!;
      expect(last.role).toBe('user');
      expect(JSON.stringify(last.content)).toContain('"tool_use_id":"toolu_original"');
      // The first covered message is the reply to the first turn the summary took (the opening is kept).
      const answer = (last.content as unknown as Anthropic.ToolResultBlockParam[])[0]!;
      expect(answer.is_error).toBeUndefined();
      expect(answer.content).toMatch(
        /^Lines 1-2 of 2 of the original message p-\w+:\nassistant:\nSimulated reply about: turn \d marker-\d/,
      );

      // The client saw one reply: the text before the call and the answer after it, no tool call, ending the turn.
      const answered = replies.find((reply) => JSON.stringify(reply.content).includes('Read back.'));
      expect(answered?.content.map((block) => block.type)).toEqual(['text', 'text']);
      expect(answered?.content.map((block) => (block.type === 'text' ? block.text : ''))).toEqual([
        'Let me read that back.',
        'Read back.',
      ]);
      expect(answered?.stop_reason).toBe('end_turn');
      expect(replies.every((reply) => reply.content.every((block) => block.type !== 'tool_use'))).toBe(true);
    }, 120_000);

  it('is not offered to a client that sends no tools', async () => {
    const client = new Anthropic({ apiKey: 'caller-key', baseURL: gateway.url, maxRetries: 0 });
    await conversation(client, false, [], 10);
    expect(sim.requests.length).toBeGreaterThanOrEqual(10);
    expect(sim.requests.some((request) => JSON.stringify(request.body).includes('(Covered messages'))).toBe(true);
    expect(sim.requests.some((request) => offersOriginal(request.body))).toBe(false);
  }, 120_000);
});
