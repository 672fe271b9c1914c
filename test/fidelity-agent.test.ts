import Anthropic from '@anthropic-ai/sdk';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAnthropicModel, type AgentTool } from '@ctxhost/anthropic';
import { ledgerOf, LEDGER_HEADING, REHYDRATED_HEADING, type CompactionReport } from '@ctxhost/core';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { createDefaultHost } from 'ctxhost';

let sim: Simulator | undefined;
let folder: string | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

function tools(workspace: string): AgentTool[] {
  return [
    {
      definition: {
        name: 'write_file',
        description: 'Write a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
      },
      run: async (input) => {
        const { path, content } = input as { path: string; content: string };
        await writeFile(join(workspace, path), content);
        return `wrote ${path}`;
      },
    },
    {
      definition: {
        name: 'bash',
        description: 'Run a command',
        inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
      },
      run: async () => ({
        output: `${'  ✓ passing case\n'.repeat(2_000)}FAIL limiter.test.ts\nAssertionError: expected 60 to be 100\nexit code 1`,
        isError: true,
      }),
    },
  ];
}

describe('fidelity in the agent loop (default host, simulator over HTTP)', () => {
  it('checks the compaction, keeps the ledger and re-reads the files the agent wrote, as they are on disk now', async () => {
    folder = await mkdtemp(join(tmpdir(), 'ctxhost-fidelity-'));
    sim = await startSimulator();
    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    sim.script(
      { content: 'Hello.' },
      {
        content: [
          { type: 'text', text: 'I decided to use a token bucket per client.' },
          {
            type: 'tool_use',
            id: 'toolu_w',
            name: 'write_file',
            input: { path: 'limiter.ts', content: 'export const LIMIT = 60;\n' },
          },
        ],
      },
      { content: [{ type: 'tool_use', id: 'toolu_b', name: 'bash', input: { command: 'npx vitest run limiter' } }] },
      { content: 'The test fails: the limit is 60.' },
      { content: 'Understood.' },
      { content: 'Noted.' },
    );
    const host = await createDefaultHost({
      config: { store: { kind: 'memory' }, compression: { protectLastN: 2, threshold: 0.95 } },
    });
    const reports: CompactionReport[] = [];
    host.hooks.compactionCompleted.tapPromise('test', async ({ report }) => {
      reports.push(report);
    });
    const agent = createAgent({
      host,
      model: createAnthropicModel(client, { model: 'claude-sonnet-4-6', contextWindow: 16_000 }),
      tools: tools(folder),
      workspace: folder,
      system: 'You are a coding agent.',
    });
    await agent.send('s1', 'Hello');
    await agent.send('s1', 'Add rate limiting in limiter.ts. Never exceed 100 requests per minute.');
    await agent.send('s1', 'No, the limit must be 100, not 60.');
    await agent.send('s1', 'Also log each rejected request.');
    // Changed on disk after the agent wrote it: rehydration shows what is there now.
    await writeFile(join(folder, 'limiter.ts'), 'export const LIMIT = 100;\n');
    const outcome = await host.compact('s1');
    expect(outcome).toMatchObject({ status: 'completed' });
    const report = reports.at(-1)!;
    expect(report.fidelity?.probes).toBeGreaterThan(3);
    expect(report.fidelity?.score).toBeGreaterThanOrEqual(report.fidelity!.candidateScore);
    expect(report.ledger?.entries).toBeGreaterThanOrEqual(3);
    expect(report.rehydrated?.files).toEqual(['limiter.ts']);
    const session = await host.session('s1');
    const summary = session.messages().find((message) => message.meta?.summary !== undefined)!;
    const text = summary.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    expect(text).toContain(LEDGER_HEADING);
    expect(text).toMatch(/- limiter\.ts \(write_file, sha256:[0-9a-f]{12}\)/);
    expect(text).toContain('- `npx vitest run limiter` → exit 1');
    expect(text).toContain("The user's constraints and corrections:\n- Never exceed 100 requests per minute.");
    expect(text).toContain(REHYDRATED_HEADING);
    expect(text).toContain('export const LIMIT = 100;');
    expect(ledgerOf(summary)?.entries.length).toBe(report.ledger?.entries);
    expect(await readFile(join(folder, 'limiter.ts'), 'utf8')).toBe('export const LIMIT = 100;\n');
    await host.dispose();
  });
});
