import { createHostHooks, REQUEST_STAGE, type Message, type ModelRequest } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { createCachingTransform } from './caching-transform.js';
import { PROMPT_CACHING } from './config-schema.js';
import { CacheTtlError } from './errors.js';

function request(model: string): ModelRequest {
  const messages: Message[] = [
    { id: 's', role: 'system', parts: [{ id: 'sys', type: 'text', text: 'be terse' }] },
    { id: 'u', role: 'user', parts: [{ id: 'ask', type: 'text', text: 'hi' }] },
  ];
  return { sessionId: 'one', model, messages, maxTokens: 100 };
}

function markers(value: ModelRequest): (string | undefined)[] {
  return value.messages.flatMap((message) =>
    message.parts.map((part) => part.cacheControl?.ttl ?? part.cacheControl?.type),
  );
}

// The plugin's tap, exercised through core's real beforeRequest waterfall (createHost is not committed yet).
describe('createCachingTransform on the beforeRequest waterfall', () => {
  it('adds breakpoints after an earlier stage and reports the status once per model', async () => {
    const lines: string[] = [];
    const hooks = createHostHooks();
    const transform = createCachingTransform({ ttl: '1h', report: (line) => lines.push(line) });
    hooks.beforeRequest.tapPromise({ name: PROMPT_CACHING, stage: REQUEST_STAGE.caching }, async (value) =>
      transform(value),
    );
    // An engine-stage tap appends a message; caching must see it, so it runs later despite being tapped first.
    hooks.beforeRequest.tapPromise({ name: 'engine', stage: REQUEST_STAGE.engine }, async (value) => ({
      ...value,
      messages: [
        ...value.messages,
        { id: 'a', role: 'assistant', parts: [{ id: 'late', type: 'text', text: 'added' }] },
      ],
    }));
    const context = { sessionId: 'one', contextWindow: 200_000 };
    const first = await hooks.beforeRequest.promise(request('claude-sonnet-4-5'), context);
    await hooks.beforeRequest.promise(request('claude-sonnet-4-5'), context);
    expect(markers(first)).toEqual(['1h', '1h', '1h']);
    expect(first.messages[2]?.parts[0]?.cacheControl).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(lines).toEqual(['prompt caching enabled (claude-sonnet-4-5, anthropic, TTL 1h)']);
  });

  it('leaves requests to other models unchanged', () => {
    const original = request('gpt-4o');
    expect(createCachingTransform({ ttl: '5m' })(original)).toBe(original);
  });

  it('is off when disabled in config, and says why', () => {
    const lines: string[] = [];
    const original = request('claude-sonnet-4-5');
    expect(createCachingTransform({ ttl: '5m', enabled: false, report: (line) => lines.push(line) })(original)).toBe(
      original,
    );
    expect(lines[0]).toMatch(/disabled .*hooks\.prompt-caching\.enabled/);
  });

  it('rejects a bad TTL when created, not on the first request', () => {
    expect(() => createCachingTransform({ ttl: '2h' as '1h' })).toThrow(CacheTtlError);
  });
});
