import { describe, expect, it } from 'vitest';
import { createHost, type ToolResultPart } from '@ctxhost/core';
import { createToolOutputTruncator } from '@ctxhost/tool-output-truncator';

const buildLog = [
  'BUILD START',
  ...Array.from({ length: 4000 }, (_, i) => `compiling module ${i} of 4000 ... ok`),
  'src/app.ts:42:7 - error TS2322: Type string is not assignable to type number.',
  'Found 1 error. BUILD FAILED',
].join('\n');

const resultPart = (output: ToolResultPart['output']): ToolResultPart => ({
  id: 'm1:0',
  type: 'tool-result',
  callId: 'c1',
  output,
});

async function truncate(
  part: ToolResultPart,
  options: Parameters<typeof createToolOutputTruncator>[0],
  toolName = 'bash',
) {
  const host = createHost({ plugins: [createToolOutputTruncator(options)] });
  const shortened = await host.hooks.toolResult.promise(part, { sessionId: 's', toolName, messageId: 'm1' });
  return { host, shortened };
}

describe('tool-output-truncator', () => {
  it('keeps the head and the tail, with a counted marker that says how to get the rest', async () => {
    const { shortened } = await truncate(resultPart(buildLog), { maxTokens: 2000 });
    const output = shortened.output as string;
    expect(output.startsWith('BUILD START\ncompiling module 0')).toBe(true);
    expect(output.endsWith('Found 1 error. BUILD FAILED')).toBe(true);
    expect(output).toContain('error TS2322');
    expect(output).toMatch(
      /\[\.\.\. [\d,]+ characters \([\d,]+ lines, about [\d,]+ tokens\) cut from the middle .* kept as part m1:0/,
    );
    expect(output).toContain('call the ctxhost_original tool with handle "m1:0"');
    expect(shortened.compacted).toMatchObject({ by: 'tool-output-truncator', originalChars: buildLog.length });
    expect(output.length).toBeLessThan(buildLog.length / 3);
  });

  it('leaves outputs under the cap, and exempt tools, untouched', async () => {
    const small = resultPart('fine');
    expect((await truncate(small, { maxTokens: 2000 })).shortened).toBe(small);
    const big = resultPart(buildLog);
    expect((await truncate(big, { maxTokens: 2000, exempt: ['lcm_expand'] }, 'lcm_expand')).shortened).toBe(big);
  });

  it('caps one output at half the room left in the window, whatever max_tokens says (found with hostile inputs)', async () => {
    const host = createHost({ config: { model: { contextLength: 8000 } }, plugins: [createToolOutputTruncator()] });
    const shortened = await host.hooks.toolResult.promise(resultPart(buildLog), {
      sessionId: 's',
      toolName: 'bash',
      messageId: 'm1',
    });
    expect(shortened.compacted?.reason).toBe('over the 4,000-token cap for one tool output');
    expect(host.counter.countText(shortened.output as string)).toBeLessThanOrEqual(4000);
  });

  it.each([
    ['an empty session', 0, 10_000],
    ['a session at 60% of its window', 12_000, 4_000],
    ['a session with only 300 tokens left', 19_700, 150],
    ['a session over its window (never admitted whole)', 25_000, 100],
  ])('sizes the cap by the room left: %s', async (_name, filler, cap) => {
    const host = createHost({ config: { model: { contextLength: 20_000 } }, plugins: [createToolOutputTruncator()] });
    const session = await host.session('room');
    if (filler > 0)
      await session.append(
        { id: 'u', role: 'user', parts: [{ id: 'u:0', type: 'text', text: 'x' }] },
        { usage: { inputTokens: filler, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 } },
      );
    const shortened = await host.hooks.toolResult.promise(resultPart(buildLog), {
      sessionId: 'room',
      toolName: 'bash',
      messageId: 'm1',
    });
    // The room is the window less the prompt so far: the reported usage plus the estimate of the message appended after it.
    const shown = Number(/over the ([\d,]+)-token cap/.exec(shortened.compacted?.reason ?? '')?.[1]?.replace(/,/g, ''));
    expect(shown).toBeLessThanOrEqual(cap);
    expect(shown).toBeGreaterThanOrEqual(cap === 100 ? 100 : cap - 20);
  });

  it('lets parallel outputs of one message share the room', async () => {
    const host = createHost({ config: { model: { contextLength: 20_000 } }, plugins: [createToolOutputTruncator()] });
    const first = await host.hooks.toolResult.promise(resultPart(buildLog), {
      sessionId: 'p',
      toolName: 'bash',
      messageId: 'm1',
    });
    const second = await host.hooks.toolResult.promise(
      { ...resultPart(buildLog), id: 'm1:1', callId: 'c2' },
      { sessionId: 'p', toolName: 'bash', messageId: 'm1' },
    );
    const firstTokens = host.counter.countText(first.output as string);
    expect(firstTokens).toBeLessThanOrEqual(10_000);
    expect(host.counter.countText(second.output as string)).toBeLessThanOrEqual(Math.floor((20_000 - firstTokens) / 2));
  });

  it('keeps whole blocks at both ends of an output of thousands of text blocks, so the cut output is never larger (found with hostile inputs)', async () => {
    const blocks = Array.from({ length: 3000 }, (_, index) => ({
      type: 'text' as const,
      text: `entry ${index} ${'y'.repeat(40)}`,
    }));
    const { host, shortened } = await truncate(resultPart(blocks), { maxTokens: 1000 });
    const texts = (shortened.output as { text: string }[]).map((block) => block.text);
    expect(texts[0]).toBe(blocks[0]!.text);
    expect(texts.at(-1)).toBe(blocks.at(-1)!.text);
    expect(texts.filter((text) => text.includes('cut from the middle'))).toHaveLength(1);
    expect(host.counter.countText(texts.join(''))).toBeLessThanOrEqual(1000);
  });

  it('applies a per-tool cap', async () => {
    const { shortened } = await truncate(resultPart(buildLog), { maxTokens: 1_000_000, perTool: { bash: 1000 } });
    expect(shortened.compacted).toBeDefined();
  });

  it('shortens text blocks and keeps images in block outputs', async () => {
    const image = { type: 'image' as const, source: { kind: 'base64' as const, mediaType: 'image/png', data: 'AAAA' } };
    const { shortened } = await truncate(resultPart([{ type: 'text', text: buildLog }, image]), { maxTokens: 2000 });
    const blocks = shortened.output as Exclude<ToolResultPart['output'], string>;
    expect(blocks[1]).toEqual(image);
    expect(blocks[0]?.type === 'text' && blocks[0].text.endsWith('BUILD FAILED')).toBe(true);
  });

  it('loses nothing: the session keeps the original of what it shortened', async () => {
    const original = resultPart(buildLog);
    const { host, shortened } = await truncate(original, { maxTokens: 2000 });
    const session = await host.session('s');
    await session.append({ id: 'm1', role: 'tool', parts: [shortened] }, { originals: [original] });
    expect(session.messages()[0]?.parts[0]).toEqual(shortened);
    expect(await session.original('m1:0')).toEqual(original);
    expect(await host.store.original('s', 'm1:0')).toEqual(original);
  });

  it('is switched off by disabled_hooks', async () => {
    const host = createHost({
      config: { disabledHooks: ['tool-output-truncator'] },
      plugins: [createToolOutputTruncator({ maxTokens: 100 })],
    });
    const part = resultPart(buildLog);
    expect(await host.hooks.toolResult.promise(part, { sessionId: 's', toolName: 'bash', messageId: 'm1' })).toBe(part);
  });
});
