import type { Message } from './message.js';

/**
 * A 53-bit hash (cyrb53) of what a message sends to the model: its role and parts.
 * The id and meta are left out, so two messages with equal content hash equally.
 * Used to tell a changed message from an unchanged one without keeping copies.
 */
export function messageContentHash(message: Message): number {
  return cyrb53(`${message.role}\u0000${JSON.stringify(message.parts)}`);
}

function cyrb53(text: string): number {
  let first = 0xdeadbeef;
  let second = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 2654435761);
    second = Math.imul(second ^ code, 1597334677);
  }
  first = Math.imul(first ^ (first >>> 16), 2246822507) ^ Math.imul(second ^ (second >>> 13), 3266489909);
  second = Math.imul(second ^ (second >>> 16), 2246822507) ^ Math.imul(first ^ (first >>> 13), 3266489909);
  return 4294967296 * (2097151 & second) + (first >>> 0);
}
