import { countTextTokens, type MessagesRequest, type Simulator } from '@ctxhost/simulator';
import { describe, expect, it } from 'vitest';
import { MODEL, waitFor, type OpencodeServer } from './opencode-server.js';
import { useSimulatedOpencode } from './support/use-simulated-opencode.js';

// hooks.native-compaction inside the real opencode (opencode serve against the simulator): the plugin's
// chat.params hook hands Anthropic's context management to opencode's @ai-sdk/anthropic provider.

const WINDOW = 200_000;
const TRIGGER = 50_000;
let sim: Simulator;
let server: OpencodeServer;

useSimulatedOpencode(
  {
    contextLimit: WINDOW,
    ctxhostYaml: () =>
      [
        'store:',
        '  kind: memory',
        'hooks:',
        '  native-compaction:',
        '    anthropic:',
        '      compaction:',
        '        enabled: true',
        `        trigger_tokens: ${TRIGGER}`,
        '      clear_tool_uses:',
        '        enabled: true',
        '        trigger_tokens: 100000',
        '        keep_tool_uses: 2',
        '        clear_at_least_tokens: 5000',
        '',
      ].join('\n'),
  },
  (running) => ({ sim, server } = running),
);

async function prompt(sessionId: string, text: string): Promise<void> {
  const result = await server.client.session.prompt({
    path: { id: sessionId },
    body: { model: MODEL, parts: [{ type: 'text', text }] },
  });
  if (result.error !== undefined) throw new Error(`prompt failed: ${JSON.stringify(result.error)}`);
}

/** The model calls of the session's turns (not opencode's title requests), in order. */
function turnRequests(marker: string) {
  return sim.requests.filter(
    (request) => request.path === '/v1/messages' && JSON.stringify(request.body).includes(marker),
  );
}

function textOf(tokens: number): string {
  const unit = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
  return unit.repeat(Math.max(1, Math.round(tokens / countTextTokens(unit))));
}

describe('native compaction through the opencode plugin (chat.params → @ai-sdk/anthropic contextManagement)', () => {
  let sessionId = '';

  it('sends the edits from hooks.native-compaction, in the API spelling, with their betas', async () => {
    const created = await server.client.session.create({ body: {} });
    sessionId = created.data?.id ?? '';
    if (sessionId === '') throw new Error(`session.create failed: ${JSON.stringify(created.error)}`);
    await prompt(sessionId, 'hello native');
    const [request] = turnRequests('hello native');
    expect((request?.body as MessagesRequest)['context_management']).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 100_000 },
          keep: { type: 'tool_uses', value: 2 },
          clear_at_least: { type: 'input_tokens', value: 5_000 },
        },
        { type: 'compact_20260112', trigger: { type: 'input_tokens', value: TRIGGER } },
      ],
    });
    expect(request?.betas).toEqual(expect.arrayContaining(['context-management-2025-06-27', 'compact-2026-01-12']));
  }, 180_000);

  it('the server compacts past the trigger, and opencode sends its compaction block back in place of the span', async () => {
    await prompt(sessionId, `big turn: ${textOf(TRIGGER + 5_000)}`);
    const compacted = turnRequests('big turn').at(-1);
    expect(compacted?.stopReason).not.toBe('error');
    await prompt(sessionId, 'after the compaction');
    const next = await waitFor('the next turn', () => turnRequests('after the compaction').at(-1));
    const blocks = (next.body as MessagesRequest).messages.flatMap((message) =>
      typeof message.content === 'string' ? [] : message.content,
    );
    expect(blocks.filter((block) => block.type === 'compaction')).toHaveLength(1);
    expect(next.usage!.input_tokens).toBeLessThan(10_000);
  }, 300_000);
});
