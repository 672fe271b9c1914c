import { randomUUID } from 'node:crypto';
import type { Message, MessageMeta, Part } from './message.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A part as a caller writes it: the id is optional and filled in. */
export type PartInput = DistributiveOmit<Part, 'id'> & { id?: string };

/** The id of the part at `index` of a message: `<messageId>:<index>`. */
export function partId(messageId: string, index: number): string {
  return `${messageId}:${index}`;
}

/** A fresh message id. */
export function newMessageId(): string {
  return `msg_${randomUUID()}`;
}

/** A message with ids filled in: `createMessage('user', [{ type: 'text', text: 'hi' }])`. */
export function createMessage(
  role: Message['role'],
  parts: readonly PartInput[],
  options: { id?: string; meta?: MessageMeta } = {},
): Message {
  const id = options.id ?? newMessageId();
  return {
    id,
    role,
    parts: parts.map((part, index) => ({ ...part, id: part.id ?? partId(id, index) })),
    ...(options.meta === undefined ? {} : { meta: options.meta }),
  };
}
