import type { Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { cutPoints, MIN_CUT_MESSAGES } from './cut-points.js';

const text = (id: string, role: Message['role'], body = id): Message => ({
  id,
  role,
  parts: [{ id: `${id}.0`, type: 'text', text: body }],
});
const call = (id: string): Message => ({
  id,
  role: 'assistant',
  parts: [{ id: `${id}.0`, type: 'tool-call', callId: `c-${id}`, name: 'bash', input: { command: 'ls' } }],
});
const result = (id: string, of: string): Message => ({
  id,
  role: 'tool',
  parts: [{ id: `${id}.0`, type: 'tool-result', callId: `c-${of}`, output: 'ok' }],
});

/** system, user, then `loops` × (call, result), then a closing answer. */
function agentSession(loops: number): Message[] {
  const messages = [text('sys', 'system'), text('ask', 'user')];
  for (let loop = 1; loop <= loops; loop++) messages.push(call(`a${loop}`), result(`r${loop}`, `a${loop}`));
  messages.push(text('done', 'assistant'));
  return messages;
}

describe('cutPoints', () => {
  it('spreads the cuts over the turns the model began, the last at the session end, each ending on what it answered', () => {
    const messages = agentSession(20);
    const cuts = cutPoints({ messages }, 3);
    expect(cuts).toHaveLength(3);
    expect(cuts.at(-1)!.at).toBe(messages.length - 1);
    for (const cut of cuts) {
      expect(cut.at).toBeGreaterThanOrEqual(MIN_CUT_MESSAGES);
      expect(messages[cut.at]!.role).toBe('assistant');
      expect(cut.messages.at(-1)!.role).toBe('tool');
      expect(cut.messages).toEqual(messages.slice(0, cut.at));
    }
    expect(new Set(cuts.map((cut) => cut.at)).size).toBe(3);
  });

  it('gives fewer cuts than asked when the session has fewer places, none when it is too short', () => {
    expect(cutPoints({ messages: agentSession(5) }, 10).length).toBeLessThan(10);
    expect(cutPoints({ messages: agentSession(2) }, 3)).toEqual([]);
  });

  it('cuts inside the segment after the agent compacted itself, with the system prompt in front, without UI-only lines', () => {
    const messages = agentSession(30);
    messages.splice(40, 0, { ...text('ui', 'user'), meta: { uiOnly: 'local-command' } });
    const boundary = 30;
    const [cut] = cutPoints({ messages, boundaries: [{ messageIndex: boundary } as never] }, 1);
    expect(cut!.messages[0]!.id).toBe('sys');
    expect(cut!.messages[1]).toBe(messages[boundary]);
    expect(cut!.messages.some((message) => message.id === 'ui')).toBe(false);
  });
});
