import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { countTextTokens, type Simulator } from '@ctxhost/simulator';
import { describe, expect, it } from 'vitest';
import { MODEL, waitFor, type OpencodeServer } from './opencode-server.js';
import { useSimulatedOpencode } from './support/use-simulated-opencode.js';

// ctxhost inside the real opencode, handed opencode's events late (as under load): its compaction between
// two turns then starts after the next prompt reached opencode. opencode's own compaction is off.
const WINDOW = 30_000;
let sim: Simulator;
let server: OpencodeServer;

useSimulatedOpencode(
  {
    contextLimit: WINDOW,
    ctxhostPlugin: pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'support/opencode-late-ctxhost.ts'))
      .href,
    ctxhostYaml: () => 'store:\n  kind: memory\n',
  },
  (running) => ({ sim, server } = running),
);

const hasTools = (request: { tools?: unknown[] }) => (request.tools ?? []).length > 0;

function textOf(tokens: number, word: string): string {
  const unit = `${word} quick brown fox jumps over the lazy dog `;
  return unit.repeat(Math.max(1, Math.round(tokens / countTextTokens(unit))));
}

async function ask(sessionId: string, text: string): Promise<void> {
  const result = await server.client.session.prompt({
    path: { id: sessionId },
    body: { model: MODEL, parts: [{ type: 'text', text }] },
  });
  if (result.error !== undefined) throw new Error(`prompt failed: ${JSON.stringify(result.error)}`);
}

function lastPromptTokens(): number {
  const usage = sim.requests
    .filter((request) => request.path === '/v1/messages' && request.status === 200 && hasTools(request.body as never))
    .at(-1)?.usage;
  if (usage === undefined) throw new Error('no model call with usage yet');
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** Model calls since `from`: `turn` with its prompt's share of the window, `summary` for opencode's compaction (no tools). */
function modelCallsSince(from: number): string[] {
  return sim.requests.slice(from).flatMap((request) => {
    if (request.path !== '/v1/messages') return [];
    if (!hasTools(request.body as never)) return ['summary'];
    const usage = request.usage;
    const tokens =
      (usage?.input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0);
    return [`turn ${tokens / WINDOW >= 0.8 ? 'past 80%' : 'under 80%'}`];
  });
}

function toastsSince(from: number): string[] {
  return server.events
    .slice(from)
    .flatMap((event) => (event.type === 'tui.toast.show' ? [event.properties.title ?? ''] : []));
}

describe('ctxhost inside the real opencode, handed its events late', () => {
  it('a prompt that reaches opencode just before ctxhost’s summarize: one summary, not a second one on the next turn’s end', async () => {
    const sessionId = (await server.client.session.create({ body: {} })).data?.id;
    if (sessionId === undefined) throw new Error('session.create failed');
    await ask(sessionId, 'hello');
    await ask(sessionId, textOf(WINDOW * 0.5 - lastPromptTokens(), 'first'));
    const from = sim.requests.length;
    const eventsFrom = server.events.length;
    await ask(sessionId, textOf(WINDOW * 0.85 - lastPromptTokens(), 'second'));
    // Sent as the turn ends: it gets in before ctxhost (1.5 s behind) asks for the summary; its own call takes 3 s.
    sim.faults.when(hasTools, { kind: 'slow', delayMs: 3_000 }, 1);
    await ask(sessionId, 'a prompt sent as the turn ended');
    await waitFor('ctxhost’s compaction toast', () =>
      toastsSince(eventsFrom).some((toast) => toast === 'Context compacted') ? true : undefined,
    );
    // Two more turns, each seen by ctxhost to its end, so a second compaction would have happened by now.
    for (const text of ['a follow-up', 'another follow-up']) {
      await ask(sessionId, text);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }

    expect(modelCallsSince(from)).toEqual([
      'turn past 80%',
      'turn past 80%',
      'summary',
      'turn under 80%',
      'turn under 80%',
    ]);
    expect(toastsSince(eventsFrom)).toEqual(['Context window filling up', 'Context compacted']);
  }, 120_000);
});
