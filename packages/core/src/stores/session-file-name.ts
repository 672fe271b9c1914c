import { createHash } from 'node:crypto';

const SAFE = /^[A-Za-z0-9_-]$/;
const MAX_ENCODED_LENGTH = 180;

/**
 * A file name for a session id that is safe on every file system and can never
 * leave the store's folder: letters, digits, `_` and `-` are kept, every other
 * byte (`.`, `/`, `%`, non-ASCII…) becomes `%XX`. Ids whose encoding is too
 * long for a file name keep a readable prefix and end in a hash of the id.
 * The store records the real id in each file's header, so nothing relies on
 * decoding a name.
 */
export function sessionFileStem(sessionId: string): string {
  if (sessionId.length === 0) throw new TypeError('session id must be a non-empty string');
  let encoded = '';
  for (const byte of Buffer.from(sessionId, 'utf8')) {
    const character = String.fromCharCode(byte);
    encoded += SAFE.test(character) ? character : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (encoded.length <= MAX_ENCODED_LENGTH) return encoded;
  const hash = createHash('sha256').update(sessionId).digest('hex').slice(0, 32);
  return `${encoded.slice(0, MAX_ENCODED_LENGTH - 34)}~${hash}`;
}
