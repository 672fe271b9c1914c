import { afterEach, describe, expect, it } from 'vitest';
import { AGENTS, baseUrls, type Agent } from './agents.js';
import { converse, pasteOf, startClientStack, type ClientRun, type ClientStack } from './client-stack.js';

// Each agent's real CLI, pointed at the simulator with a 50,000-token window: a conversation of ten
// turns, each pasting about 6,000 tokens, overflows when sent directly; through the gateway every turn
// is answered. (The agents believe their models have their usual windows, so their own compaction
// does not step in.)
const WINDOW = 50_000;
const TURNS = 10;

let stack: ClientStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function conversation(agent: Agent, through: 'direct' | 'gateway'): Promise<ClientRun[]> {
  stack = await startClientStack(WINDOW);
  const baseUrl = through === 'direct' ? stack.sim.url : stack.gateway.url;
  baseUrls.set(stack, baseUrl);
  await agent.setup(stack, baseUrl);
  const open = stack;
  return converse(TURNS, (turn) =>
    agent.turn(open, turn, `${pasteOf(turn, 6000)}\nWhat is the figure for account ${turn}?`),
  );
}

describe.each(AGENTS)('$name ($package)', (agent) => {
  it('overflows the window when sent directly', async () => {
    const runs = await conversation(agent, 'direct');
    expect(stack!.sim.requests.some((request) => request.status === 400)).toBe(true);
    expect(runs.length).toBeLessThanOrEqual(TURNS);
  });

  it('answers every turn through the gateway', async () => {
    const runs = await conversation(agent, 'gateway');
    expect(
      runs.map((run) => run.code),
      runs.at(-1)?.stdout + runs.at(-1)!.stderr,
    ).toEqual(Array(TURNS).fill(0));
    expect(stack!.gateway.handler.metrics.render()).toMatch(/ctxhost_gateway_compactions_total [1-9]/);
  });
});
