import { countTextTokens, startSimulator, type Simulator } from '@ctxhost/simulator';
import type { ToolPart } from '@opencode-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL, startOpencodeServer, waitFor, type OpencodeProject, type OpencodeServer } from './opencode-server.js';

const WINDOW = 60_000;
const DISABLED_HOOKS_YAML =
  'store:\n  kind: memory\ndisabled_hooks: [context-window-monitor, preemptive-compaction, tool-output-truncator]\nhooks:\n  tool-output-truncator:\n    max_tokens: 300\n';
let sim: Simulator;
let server: OpencodeServer;

// One opencode process for the file: each config is a project (directory) of its own, with its own plugin instance.
beforeAll(async () => {
  sim = await startSimulator({ contextLimit: WINDOW });
  server = await startOpencodeServer({
    simulatorUrl: sim.url,
    contextLimit: WINDOW,
    ctxhostYaml: () => DISABLED_HOOKS_YAML,
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await sim?.close();
}, 60_000);

function start(ctxhostYaml: string, opencodeCompaction = false): Promise<OpencodeProject> {
  return server.openProject({ ctxhostYaml: () => ctxhostYaml, opencodeCompaction });
}

async function ask(running: OpencodeProject, sessionId: string, text: string): Promise<void> {
  const result = await running.client.session.prompt({
    path: { id: sessionId },
    body: { model: MODEL, parts: [{ type: 'text', text }] },
  });
  if (result.error !== undefined) throw new Error(`prompt failed: ${JSON.stringify(result.error)}`);
}

async function newSession(running: OpencodeProject): Promise<string> {
  const id = (await running.client.session.create({ body: {} })).data?.id;
  if (id === undefined) throw new Error('session.create failed');
  await ask(running, id, 'hello');
  await waitFor('the session title', async () =>
    (await running.client.session.get({ path: { id } })).data?.title.startsWith('New session') === false
      ? true
      : undefined,
  );
  return id;
}

describe('the plugin’s config inside the real opencode', () => {
  it('leaves out the hooks listed in disabled_hooks: no usage toast, no truncation', async () => {
    // The server's first project has this config.
    const running = server;
    const sessionId = await newSession(running);
    const unit = 'the quick brown fox jumps over the lazy dog while reading logs ';
    await ask(running, sessionId, unit.repeat(Math.round((WINDOW * 0.85) / countTextTokens(unit)) - 400));
    sim.script({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_cfg',
          name: 'bash',
          input: { command: 'seq 1 1500', description: 'print numbers' },
        },
      ],
    });
    await ask(running, sessionId, 'print the numbers');
    const messages = (await running.client.session.messages({ path: { id: sessionId } })).data ?? [];
    const bash = messages
      .flatMap((message) => message.parts)
      .find((part): part is ToolPart => part.type === 'tool' && part.tool === 'bash');
    if (bash?.state.status !== 'completed') throw new Error('bash did not complete');
    expect(bash.state.output).not.toContain('by ctxhost');
    expect(bash.state.output).toContain('\n750\n');
    expect(running.events.filter((event) => event.type === 'tui.toast.show')).toEqual([]);
  }, 300_000);

  it('never breaks opencode: with an invalid config it says so in a toast and opencode still answers', async () => {
    const running = await start('hooks:\n  tool-output-truncator:\n    max_tokens: lots\n');
    const sessionId = await newSession(running);
    const toast = await waitFor('the "ctxhost is off" toast', () =>
      running.events.find((event) => event.type === 'tui.toast.show' && event.properties.title === 'ctxhost is off'),
    );
    expect(toast.type === 'tui.toast.show' && toast.properties.message).toMatch(
      /^ctxhost did not start in .*\.opencode\/ctxhost\.yaml:3.*hooks\.tool-output-truncator\.max_tokens/s,
    );
    const texts = ((await running.client.session.messages({ path: { id: sessionId } })).data ?? []).flatMap((message) =>
      message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])),
    );
    expect(texts).toContain('Simulated reply about: hello');
  }, 300_000);

  it('stands aside when opencode’s own compaction is on: opencode compacts and replays the prompt, once, and ctxhost does not compact again', async () => {
    const running = await start(
      'store:\n  kind: memory\nhooks:\n  anthropic-auto-compact:\n    initial_delay_ms: 0\n',
      true,
    );
    const sessionId = await newSession(running);
    const unit = 'the quick brown fox jumps over the lazy dog while reading logs ';
    // opencode 1.18.33 replays the prompt after its compaction with that prompt's text in it twice: a prompt over half
    // the window never fits again (opencode loops compact → 400 without end), and one over about a third compacts again
    // right after the replay. The first turn stays under opencode's own proactive compaction (it compacts after 0.8).
    const text = (share: number) => unit.repeat(Math.round((WINDOW * share) / countTextTokens(unit)));
    await ask(running, sessionId, `first ${text(0.72)}`);
    const from = sim.requests.length;
    const second = `second ${text(0.3)}`;
    await ask(running, sessionId, second);
    const answer = await waitFor('opencode’s own recovery', async () => {
      const last = ((await running.client.session.messages({ path: { id: sessionId } })).data ?? []).at(-1);
      return last?.info.role === 'assistant' &&
        last.info.time.completed !== undefined &&
        last.info.summary !== true &&
        last.info.error === undefined
        ? last
        : undefined;
    });
    expect(answer.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []))).toEqual([
      `Simulated reply about: ${second.replace(/\s+/g, ' ').trim().slice(0, 80)}`,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const calls = sim.requests
      .slice(from)
      .filter((request) => request.path === '/v1/messages')
      .map((request) => request.status);
    expect(calls).toEqual([400, 200, 200]);
    expect(running.events.filter((event) => event.type === 'session.compacted')).toHaveLength(1);
    expect(
      running.events.filter(
        (event) =>
          event.type === 'tui.toast.show' &&
          ['Session recovered', 'Manual intervention needed'].includes(event.properties.title ?? ''),
      ),
    ).toEqual([]);
  }, 300_000);
});
