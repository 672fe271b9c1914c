import type Anthropic from '@anthropic-ai/sdk';
import { toUsage, type Usage } from 'ctxhost';

/**
 * The client as it is, except that every `messages.create` reply's usage is handed to
 * `onUsage`: eval counts the summarizer's calls and the probe call through it, on the
 * simulator and on the real API alike. Streams are not used here.
 */
export function recordingClient(client: Anthropic, onUsage: (usage: Usage) => void): Anthropic {
  const messages = client.messages;
  const create = async (...args: Parameters<typeof messages.create>): Promise<Anthropic.Message> => {
    const reply = (await messages.create(...args)) as Anthropic.Message;
    onUsage(toUsage(reply.usage));
    return reply;
  };
  const recorded = new Proxy(messages, {
    get: (target, key, receiver) => (key === 'create' ? create : (Reflect.get(target, key, receiver) as unknown)),
  });
  return new Proxy(client, {
    get: (target, key, receiver) => (key === 'messages' ? recorded : (Reflect.get(target, key, receiver) as unknown)),
  });
}
