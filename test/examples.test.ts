import { describe, expect, it } from 'vitest';
import { main as aiSdk } from '../examples/ai-sdk/src/index.js';
import { main as openaiAgents } from '../examples/openai-agents/src/index.js';
import { main as langchain } from '../examples/langchain/src/index.js';
import { main as mastra } from '../examples/mastra/src/index.js';
import { main as customEngine } from '../examples/custom-engine/src/index.js';
import { main as customHook } from '../examples/custom-hook/src/index.js';
import { main as disableHooks } from '../examples/disable-hooks/src/index.js';
import { main as quickstart } from '../examples/quickstart/src/index.js';
import { main as wrapClient } from '../examples/wrap-client/src/index.js';
import { main as openaiWrapClient } from '../examples/openai-wrap-client/src/index.js';

const quiet = () => undefined;
const offline = process.env['ANTHROPIC_API_KEY'] === undefined;

describe.runIf(offline)('examples run offline against the simulator', () => {
  it('quickstart: an agent with two tools answers', async () => {
    expect(await quickstart(quiet)).toContain('42');
  });

  it('wrap-client: an existing loop survives a window it overflows', async () => {
    const lines: string[] = [];
    expect(await wrapClient((line) => lines.push(line))).toBe(24);
    expect(lines.some((line) => line.startsWith('compacted'))).toBe(true);
  });

  it('openai-wrap-client: a Chat Completions tool loop learns an unknown window from one overflow, then compacts before sending', async () => {
    const lines: string[] = [];
    expect(await openaiWrapClient((line) => lines.push(line))).toBe(25);
    expect(lines.filter((line) => line.startsWith('[info] Context window learned'))).toHaveLength(1);
    const recovered = lines.findIndex((line) => line.startsWith('[success] Session recovered'));
    expect(recovered).toBeGreaterThan(-1);
    // From then on it compacts before sending: one 400 in all.
    expect(lines.slice(recovered + 1).some((line) => line.startsWith('compacted'))).toBe(true);
    expect(lines.at(-1)!.match(/400/g)).toHaveLength(1);
  });

  it('ai-sdk: a streamText chat loop survives a window it overflows, the history mapped every turn', async () => {
    const lines: string[] = [];
    expect(await aiSdk((line) => lines.push(line))).toBe(16);
    expect(lines.some((line) => line.startsWith('[success] Session recovered'))).toBe(true);
    expect(lines.filter((line) => line.startsWith('warning') || line.startsWith('error'))).toEqual([]);
  });

  it('openai-agents: a run() conversation survives a window it overflows', async () => {
    const lines: string[] = [];
    expect(await openaiAgents((line) => lines.push(line))).toBe(16);
    expect(lines.some((line) => line.startsWith('[success] Session recovered'))).toBe(true);
    expect(lines.filter((line) => line.startsWith('warning') || line.startsWith('error'))).toEqual([]);
  });

  it('mastra: an agent.stream() chat survives a window it overflows, the step retried for the processor', async () => {
    const lines: string[] = [];
    expect(await mastra((line) => lines.push(line))).toBe(16);
    expect(lines.some((line) => line.startsWith('[success] Session recovered'))).toBe(true);
    expect(lines.filter((line) => line.startsWith('warning') || line.startsWith('error'))).toEqual([]);
  });

  it('langchain: a createAgent conversation survives a window it overflows', async () => {
    const lines: string[] = [];
    expect(await langchain((line) => lines.push(line))).toBe(24);
    expect(lines.some((line) => line.startsWith('[success] Session recovered'))).toBe(true);
    expect(lines.filter((line) => line.startsWith('warning') || line.startsWith('error'))).toEqual([]);
  });

  it('disable-hooks: the listed hooks are gone', async () => {
    const { before, after } = await disableHooks(quiet);
    expect(before).toContain('session-hygiene');
    expect(after).not.toContain('session-hygiene');
    expect(after).not.toContain('preemptive-compaction');
    expect(after).toContain('context-window-monitor');
  });

  it('custom-engine: a registered engine is chosen by name', async () => {
    expect(await customEngine(quiet)).toBe('keep-last');
  });

  it('custom-hook: usage and errors are logged to a file', async () => {
    const lines = (await customHook(quiet)).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => 'promptTokens' in line).length).toBeGreaterThanOrEqual(2);
    expect(lines.some((line) => line['error'] === 'overloaded')).toBe(true);
  });
});
