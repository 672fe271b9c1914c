import { describe, expect, it } from 'vitest';
import { createPromptCache } from './prompt-cache.js';
import { countTokens } from '../wire/tokenizer.js';
import type { ContentBlock, MessagesRequest } from '../wire/wire.js';

const long = 'cacheable context words '.repeat(200);
const marked = (text: string, ttl?: '5m' | '1h'): ContentBlock => ({
  type: 'text',
  text,
  cache_control: ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl },
});
const request = (system: ContentBlock[], messages: MessagesRequest['messages'], model = 'm'): MessagesRequest => ({
  model,
  max_tokens: 10,
  system,
  messages,
});

describe('the prompt cache', () => {
  it('writes at a breakpoint, then reads the same prefix', () => {
    const cache = createPromptCache(() => 0);
    const first = request([marked(long)], [{ role: 'user', content: 'one' }]);
    const prefix = countTokens({ messages: [], system: first.system });
    expect(cache.apply(first, 100)).toEqual({ read: 0, creation5m: prefix, creation1h: 0 });
    const second = request([marked(long)], [{ role: 'user', content: 'two' }]);
    expect(cache.apply(second, 100)).toEqual({ read: prefix, creation5m: 0, creation1h: 0 });
  });

  it('splits creation between 5m and 1h breakpoints, each counting its own span', () => {
    const cache = createPromptCache(() => 0);
    const body = request([marked(long, '1h')], [{ role: 'user', content: [marked(long)] }]);
    const usage = cache.apply(body, 100);
    expect(usage.creation1h).toBe(countTokens({ messages: [], system: body.system }));
    expect(usage.creation1h + usage.creation5m).toBe(countTokens(body));
  });

  it('warms a prefix through the last block within the given tokens: the request reads it and writes the rest', () => {
    const cache = createPromptCache(() => 0);
    const head = { type: 'text' as const, text: long };
    const body = request([head, marked(`${long} more`)], [{ role: 'user', content: 'x' }]);
    const first = countTokens({ messages: [], system: [head] });
    const both = countTokens({ messages: [], system: body.system });
    expect(cache.warm(body, first - 1)).toBe(0);
    expect(cache.warm(body, both - 1)).toBe(first);
    expect(cache.apply(body, 100)).toEqual({ read: first, creation5m: both - first, creation1h: 0 });
  });

  it('caches nothing below the minimum length', () => {
    const cache = createPromptCache(() => 0);
    const body = request([marked('short')], [{ role: 'user', content: 'x' }]);
    expect(cache.apply(body, 1024)).toEqual({ read: 0, creation5m: 0, creation1h: 0 });
    expect(cache.apply(body, 1024)).toEqual({ read: 0, creation5m: 0, creation1h: 0 });
  });

  it('misses after a change before the breakpoint, and for another model', () => {
    const cache = createPromptCache(() => 0);
    cache.apply(request([marked(long)], [{ role: 'user', content: 'x' }]), 100);
    expect(cache.apply(request([marked(`${long}!`)], [{ role: 'user', content: 'x' }]), 100).read).toBe(0);
    expect(cache.apply(request([marked(long)], [{ role: 'user', content: 'x' }], 'other'), 100).read).toBe(0);
  });

  it('expires after the TTL, and a hit refreshes it', () => {
    let clock = 0;
    const cache = createPromptCache(() => clock);
    const body = request([marked(long)], [{ role: 'user', content: 'x' }]);
    cache.apply(body, 100);
    clock = 4 * 60_000;
    expect(cache.apply(body, 100).read).toBeGreaterThan(0);
    clock = 8 * 60_000;
    expect(cache.apply(body, 100).read).toBeGreaterThan(0);
    clock = 14 * 60_000;
    expect(cache.apply(body, 100).read).toBe(0);
  });

  it('keeps a 1h entry past five minutes', () => {
    let clock = 0;
    const cache = createPromptCache(() => clock);
    const body = request([marked(long, '1h')], [{ role: 'user', content: 'x' }]);
    cache.apply(body, 100);
    clock = 50 * 60_000;
    expect(cache.apply(body, 100).read).toBeGreaterThan(0);
  });

  it('finds an earlier cached prefix from a later breakpoint (the lookback)', () => {
    const cache = createPromptCache(() => 0);
    const turn1 = request([], [{ role: 'user', content: [marked(long)] }]);
    const written = cache.apply(turn1, 100).creation5m;
    const turn2 = request(
      [],
      [
        { role: 'user', content: [{ type: 'text', text: long }] },
        { role: 'assistant', content: 'answer' },
        { role: 'user', content: [marked('next')] },
      ],
    );
    const usage = cache.apply(turn2, 100);
    expect(usage.read).toBe(written);
    expect(usage.creation5m).toBe(countTokens(turn2) - written);
  });
});
