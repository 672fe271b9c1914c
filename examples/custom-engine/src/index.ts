import {
  createDefaultHost,
  registerContextEngine,
  unregisterContextEngine,
  type ContextEngine,
  type Message,
} from 'ctxhost';

/**
 * A context engine of your own: keep the system prompt and the last `keep` messages,
 * and say what was dropped. Registered by name and chosen with `context.engine`.
 */
export function createKeepLastEngine(keep = 6): ContextEngine {
  return {
    name: 'keep-last',
    shouldCompress: (state) => state.contextWindow !== undefined && state.promptTokens > state.contextWindow * 0.6,
    async compress(messages, context) {
      const system = messages.filter((message) => message.role === 'system');
      let start = Math.max(0, messages.length - keep);
      while (start > 0 && messages[start]?.role === 'tool') start--; // never split a call from its results
      const tail = messages.slice(start).filter((message) => message.role !== 'system');
      const note: Message = {
        id: `keep-last-${Date.now()}`,
        role: 'user',
        parts: [
          {
            id: 'note',
            type: 'text',
            text: `[${start - system.length} earlier messages were dropped from view; they remain in the session store]`,
          },
        ],
        meta: { summary: { covers: messages.slice(system.length, start).map((m) => m.id), engine: 'keep-last' } },
      };
      const projection = [...system, note, ...tail];
      return {
        messages: projection,
        report: {
          engine: 'keep-last',
          reason: context.reason,
          tokensBefore: context.counter.countAll(messages),
          tokensAfter: context.counter.countAll(projection),
          messagesBefore: messages.length,
          messagesAfter: projection.length,
        },
      };
    },
  };
}

export async function main(log: (line: string) => void = console.log): Promise<string> {
  registerContextEngine('keep-last', () => createKeepLastEngine());
  try {
    const host = await createDefaultHost({ config: { store: { kind: 'memory' }, context: { engine: 'keep-last' } } });
    log(`active engine: ${host.engine.name}`);
    const session = await host.session('demo');
    for (let i = 0; i < 20; i++)
      await session.append({
        id: `m${i}`,
        role: i % 2 === 0 ? 'user' : 'assistant',
        parts: [{ id: `m${i}:0`, type: 'text', text: `message ${i}` }],
      });
    const { messages, report } = await host.engine.compress(session.messages(), {
      sessionId: 'demo',
      contextWindow: 1000,
      counter: host.counter,
      reason: 'manual',
    });
    await session.applyCompaction(messages, report);
    log(
      `${report.messagesBefore} → ${report.messagesAfter} messages in view; history keeps ${session.history().length}`,
    );
    return host.engine.name;
  } finally {
    unregisterContextEngine('keep-last');
  }
}
