import { randomUUID } from 'node:crypto';
import { open, readFile, rename, truncate, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import type { StoredEvent } from './session-store.js';

/** The format this code writes; it reads every version up to this one. */
export const SESSION_LOG_FORMAT_VERSION = 1;
const FORMAT_NAME = 'ctxhost-session-log';
const NEWLINE = 0x0a;

interface LogHeader {
  format: typeof FORMAT_NAME;
  version: number;
  sessionId: string;
}

export interface LoadedLog {
  sessionId: string;
  events: StoredEvent[];
  /** Bytes of a torn last line that were dropped (and truncated from the file). */
  droppedBytes: number;
}

/**
 * Reads a session log. A last line cut short (the process died mid-write) is
 * dropped and the file truncated to the last complete line; damage anywhere
 * else is CTXHOST_STORE_CORRUPT, and a newer format is CTXHOST_STORE_VERSION.
 * Returns undefined when the file does not exist.
 */
export async function loadSessionLog(path: string): Promise<LoadedLog | undefined> {
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const headerEnd = content.indexOf(NEWLINE);
  if (headerEnd < 0) throw corrupt(path, 1, 'the header line is incomplete');
  const header = parseHeader(path, content.subarray(0, headerEnd).toString('utf8'));
  const events: StoredEvent[] = [];
  let start = headerEnd + 1;
  let line = 2;
  while (start < content.length) {
    const end = content.indexOf(NEWLINE, start);
    const event = end < 0 ? undefined : parseEvent(content.subarray(start, end).toString('utf8'), events.length + 1);
    if (event === undefined) {
      // Only the last line may be torn: it was never acknowledged, since appends are synced before they resolve.
      const isLastLine = end < 0 || end === content.length - 1;
      if (!isLastLine) throw corrupt(path, line, 'the line is not a valid event');
      await truncate(path, start);
      return { sessionId: header.sessionId, events, droppedBytes: content.length - start };
    }
    events.push(event);
    start = end + 1;
    line += 1;
  }
  return { sessionId: header.sessionId, events, droppedBytes: 0 };
}

/** Reads only the header (for listing): chunk by chunk up to its newline, however long the session id. */
export async function readLogHeader(path: string): Promise<{ sessionId: string } | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const chunks: Buffer[] = [];
    let position = 0;
    while (position < HEADER_READ_LIMIT) {
      const buffer = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return undefined;
      const chunk = buffer.subarray(0, bytesRead);
      const end = chunk.indexOf(NEWLINE);
      if (end >= 0) return parseHeader(path, Buffer.concat([...chunks, chunk.subarray(0, end)]).toString('utf8'));
      chunks.push(chunk);
      position += bytesRead;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** A header longer than this is not one (a session id is at most 1,024 bytes, old logs allowed more). */
const HEADER_READ_LIMIT = 16 * 1024 * 1024;

/** Writes a complete log (header and events) to a temporary file and renames it over `path`: all or nothing. */
export async function writeLogAtomically(
  path: string,
  sessionId: string,
  events: readonly StoredEvent[],
): Promise<void> {
  const header: LogHeader = { format: FORMAT_NAME, version: SESSION_LOG_FORMAT_VERSION, sessionId };
  const lines = [JSON.stringify(header), ...events.map((event) => JSON.stringify(event))];
  const draft = `${path}.${randomUUID()}.tmp`;
  try {
    const handle = await open(draft, 'wx');
    try {
      await handle.writeFile(`${lines.join('\n')}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(draft, path);
  } catch (error) {
    await unlink(draft).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Makes a rename or a new file in `directory` durable (a no-op where directories cannot be synced). */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r').catch(() => undefined);
  if (handle === undefined) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

function parseHeader(path: string, text: string): LogHeader {
  let header: Partial<LogHeader>;
  try {
    header = JSON.parse(text) as Partial<LogHeader>;
  } catch {
    throw corrupt(path, 1, 'the header is not JSON');
  }
  if (header.format !== FORMAT_NAME || typeof header.version !== 'number' || typeof header.sessionId !== 'string') {
    throw corrupt(path, 1, `the header is not a ${FORMAT_NAME} header`);
  }
  if (header.version > SESSION_LOG_FORMAT_VERSION) {
    throw new CtxhostError(
      CORE_ERROR_CODES.storeVersion,
      `session log ${path} was written in format version ${header.version}, but this @ctxhost/core reads versions up to ${SESSION_LOG_FORMAT_VERSION}; upgrade @ctxhost/core to open it (the file was left untouched)`,
    );
  }
  return { format: FORMAT_NAME, version: header.version, sessionId: header.sessionId };
}

function parseEvent(text: string, expectedSeq: number): StoredEvent | undefined {
  try {
    const event = JSON.parse(text) as Partial<StoredEvent>;
    const valid =
      typeof event === 'object' &&
      event !== null &&
      event.seq === expectedSeq &&
      typeof event.type === 'string' &&
      typeof event.eventId === 'string';
    return valid ? (event as StoredEvent) : undefined;
  } catch {
    return undefined;
  }
}

function corrupt(path: string, line: number, reason: string): CtxhostError {
  return new CtxhostError(
    CORE_ERROR_CODES.storeCorrupt,
    `session log ${path}:${line} is damaged (${reason}); nothing was changed. Move the file aside to start the session afresh, or repair that line`,
  );
}
