import { hash as oneShotHash } from 'node:crypto';
import type { Message } from '../model/message.js';
import { writeContentKey, type ContentKeySink } from './content-key.js';

/** A piece shorter than this is copied byte by byte while it is ASCII (no call into the engine's encoder). */
const SHORT_PIECE = 64;
/** The buffer's first size, and the largest one kept between keys (a larger one is made for one long key). */
const KEPT_BYTES = 1 << 20;

/**
 * Writes a key's UTF-8 bytes into one buffer reused from key to key, so a key is hashed without being made
 * as a string: no rope of its pieces and no flattened copy of every text in it (on a first call of 100k
 * messages, 300 MB of short-lived strings, a third of that call's scavenges). The key's syntax and short
 * ASCII values are copied byte by byte; any other piece (a text, a tool output) is encoded straight from the
 * caller's string. The bytes are those of the key as one string (each piece encoded alone is the same: a
 * surrogate pair is never split across two pieces, see `writeContentKey`), so the hash is the same.
 */
class KeyBytes implements ContentKeySink {
  private buffer = Buffer.allocUnsafeSlow(KEPT_BYTES);
  private length = 0;

  start(head: string): void {
    this.length = 0;
    this.add(head);
  }

  add(piece: string): void {
    // A UTF-16 unit takes at most 3 bytes in UTF-8 (a pair, two units, takes 4).
    const needed = this.length + 3 * piece.length;
    if (needed > this.buffer.length) this.grow(needed);
    if (piece.length < SHORT_PIECE && this.copyAscii(piece)) return;
    this.length += this.buffer.write(piece, this.length, 'utf8');
  }

  digest(): string {
    const digest = oneShotHash('sha256', this.buffer.subarray(0, this.length), 'hex');
    if (this.buffer.length > KEPT_BYTES) this.buffer = Buffer.allocUnsafeSlow(KEPT_BYTES);
    return digest;
  }

  /** Copies an ASCII piece; false (nothing kept) at its first other character. */
  private copyAscii(piece: string): boolean {
    const buffer = this.buffer;
    let at = this.length;
    for (let index = 0; index < piece.length; index++) {
      const code = piece.charCodeAt(index);
      if (code >= 0x80) return false;
      buffer[at++] = code;
    }
    this.length = at;
    return true;
  }

  private grow(needed: number): void {
    const larger = Buffer.allocUnsafeSlow(Math.max(needed, 2 * this.buffer.length));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }
}

const keyBytes = new KeyBytes();

/** sha256 of `head + contentKey(message)` in hex, without making that string. */
export function contentKeyDigest(head: string, message: Message): string {
  keyBytes.start(head);
  writeContentKey(message, keyBytes);
  return keyBytes.digest();
}
