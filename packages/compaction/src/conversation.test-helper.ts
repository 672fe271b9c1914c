import type { Message } from '@ctxhost/core';

/** A tool call to put in an assistant message: `[name, callId]` or `[name, callId, input]`. */
export type CallSpec = [name: string, callId: string, input?: string];

/**
 * Builds test conversations with fresh, readable ids (`m1`, `m2`, …).
 * Results go in user messages, as the Anthropic API carries them.
 */
export function createConversation() {
  let next = 0;
  const id = () => `m${++next}`;
  const text = (messageId: string, body: string) => ({ id: `${messageId}:0`, type: 'text' as const, text: body });
  return {
    system: (body = 'You are helpful.'): Message => {
      const messageId = id();
      return { id: messageId, role: 'system', parts: [text(messageId, body)] };
    },
    user: (body = 'Please help.'): Message => {
      const messageId = id();
      return { id: messageId, role: 'user', parts: [text(messageId, body)] };
    },
    assistant: (body = 'Sure.'): Message => {
      const messageId = id();
      return { id: messageId, role: 'assistant', parts: [text(messageId, body)] };
    },
    calls: (...calls: CallSpec[]): Message => {
      const messageId = id();
      return {
        id: messageId,
        role: 'assistant',
        parts: calls.map(([name, callId, input], position) => ({
          id: `${messageId}:${position}`,
          type: 'tool-call' as const,
          callId,
          name,
          input: { query: input ?? 'x' },
        })),
      };
    },
    results: (...results: [callId: string, output: string][]): Message => {
      const messageId = id();
      return {
        id: messageId,
        role: 'user',
        parts: results.map(([callId, output], position) => ({
          id: `${messageId}:${position}`,
          type: 'tool-result' as const,
          callId,
          output,
        })),
      };
    },
  };
}

/** Words of filler so a message weighs something. */
export function words(count: number, word = 'token'): string {
  return Array.from({ length: count }, () => word).join(' ');
}

/** Message ids, for compact assertions. */
export function ids(messages: readonly Message[]): string[] {
  return messages.map((message) => message.id);
}

/**
 * A system message and `count` turns, each: a user message, an assistant message
 * with two parallel calls, one message with both results, an assistant answer.
 * Three groups and four messages per turn.
 */
export function toolTurns(count: number, resultWords = 40): Message[] {
  const c = createConversation();
  const messages: Message[] = [c.system()];
  for (let turn = 1; turn <= count; turn++) {
    messages.push(
      c.user(`question ${turn}`),
      c.calls(['get_weather', `w${turn}`], ['search_docs', `s${turn}`]),
      c.results([`w${turn}`, `sunny, 18°C\n${words(resultWords)}`], [`s${turn}`, `3 matches\n${words(resultWords)}`]),
      c.assistant(`answer ${turn}`),
    );
  }
  return messages;
}
