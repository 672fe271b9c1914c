import { appendFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CtxhostError } from '../errors.js';
import { createFileStore } from './file-store.js';
import { SESSION_LOG_FORMAT_VERSION } from './session-log-file.js';
import { appended, describeSessionStoreContract, textMessage, textPart } from './store-contract.test-helper.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'ctxhost-file-store-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describeSessionStoreContract('file store', () => createFileStore({ directory }));

async function onlyLogFile(): Promise<string> {
  const names = (await readdir(directory)).filter((name) => name.endsWith('.jsonl'));
  expect(names).toHaveLength(1);
  return join(directory, names[0] ?? '');
}

describe('createFileStore', () => {
  it('round-trips every event and original through a reopen', async () => {
    const store = createFileStore({ directory });
    await store.append('s1', appended(textMessage('m1', 'first')), { eventId: 'e1' });
    await store.append('s1', {
      type: 'part.updated',
      messageId: 'm1',
      partId: 'm1-p',
      part: textPart('m1-p', 'short'),
      reason: 'truncated',
    });
    const written = await store.read('s1');
    await store.close();

    const reopened = createFileStore({ directory });
    expect(await reopened.read('s1')).toStrictEqual(written);
    expect(await reopened.original('s1', 'm1-p')).toStrictEqual(textPart('m1-p', 'first'));
    expect((await reopened.append('s1', appended(textMessage('m1', 'first')), { eventId: 'e1' })).seq).toBe(1);
    expect((await reopened.append('s1', appended(textMessage('m2', 'next')))).seq).toBe(3);
    await reopened.close();
  });

  it('writes a header line with the format version and one JSON line per event', async () => {
    const store = createFileStore({ directory });
    await store.append('s1', appended(textMessage('m1', 'x')));
    await store.close();
    const lines = (await readFile(await onlyLogFile(), 'utf8')).trimEnd().split('\n');
    expect(JSON.parse(lines[0] ?? '')).toStrictEqual({
      format: 'ctxhost-session-log',
      version: SESSION_LOG_FORMAT_VERSION,
      sessionId: 's1',
    });
    expect(lines).toHaveLength(2);
  });

  it.each([
    ['a line cut in the middle', (line: string) => line.slice(0, Math.floor(line.length / 2))],
    ['a complete line without its newline', (line: string) => line],
    ['a few bytes', () => '{"se'],
  ])('drops a torn last line (%s) and keeps everything before it', async (_, tear) => {
    const store = createFileStore({ directory });
    await store.append('s1', appended(textMessage('m1', 'kept 1')));
    await store.append('s1', appended(textMessage('m2', 'kept 2')));
    const before = await store.read('s1');
    await store.close();
    const file = await onlyLogFile();
    const goodContent = await readFile(file, 'utf8');
    const next = JSON.stringify({ ...before[1], seq: 3, eventId: 'torn' });
    await appendFile(file, tear(next));

    const reopened = createFileStore({ directory });
    expect(await reopened.read('s1')).toStrictEqual(before);
    expect(await readFile(file, 'utf8')).toBe(goodContent);
    expect((await reopened.append('s1', appended(textMessage('m3', 'after repair')))).seq).toBe(3);
    await reopened.close();
    expect((await readFile(file, 'utf8')).trimEnd().split('\n')).toHaveLength(4);
  });

  it('refuses damage before the last line as CTXHOST_STORE_CORRUPT, leaving the file alone', async () => {
    const store = createFileStore({ directory });
    await store.append('s1', appended(textMessage('m1', 'a')));
    await store.append('s1', appended(textMessage('m2', 'b')));
    await store.close();
    const file = await onlyLogFile();
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[1] = '{"broken';
    await writeFile(file, lines.join('\n'));
    const reopened = createFileStore({ directory });
    const error = await reopened.read('s1').catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(error, 'CTXHOST_STORE_CORRUPT')).toBe(true);
    expect(String((error as Error).message)).toContain(':2 is damaged');
    expect(await readFile(file, 'utf8')).toBe(lines.join('\n'));
    await reopened.close();
  });

  it('refuses a log written by a newer format version with CTXHOST_STORE_VERSION', async () => {
    const store = createFileStore({ directory });
    await store.append('s1', appended(textMessage('m1', 'a')));
    await store.close();
    const file = await onlyLogFile();
    const content = await readFile(file, 'utf8');
    await writeFile(
      file,
      content.replace(`"version":${SESSION_LOG_FORMAT_VERSION}`, `"version":${SESSION_LOG_FORMAT_VERSION + 1}`),
    );
    const reopened = createFileStore({ directory });
    const error = await reopened.read('s1').catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(error, 'CTXHOST_STORE_VERSION')).toBe(true);
    expect((error as Error).message).toMatch(
      /format version 2, but this @ctxhost\/core reads versions up to 1; upgrade/,
    );
    await reopened.close();
  });

  it("refuses a session another live owner holds with CTXHOST_STORE_IN_USE, and takes over a dead owner's lock", async () => {
    const first = createFileStore({ directory });
    await first.append('s1', appended(textMessage('m1', 'a')));
    const second = createFileStore({ directory });
    const error = await second.append('s1', appended(textMessage('m2', 'b'))).catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(error, 'CTXHOST_STORE_IN_USE')).toBe(true);
    expect((error as Error).message).toContain(`process ${process.pid}`);
    await first.close();
    expect((await second.append('s1', appended(textMessage('m2', 'b')))).seq).toBe(2);
    await second.close();

    const file = await onlyLogFile();
    await writeFile(
      `${file}.lock`,
      JSON.stringify({ pid: 2 ** 22 + 12345, hostname: (await import('node:os')).hostname(), token: 'dead' }),
    );
    const third = createFileStore({ directory });
    expect(await third.read('s1')).toHaveLength(2);
    await third.close();
  });

  it('compacts a log by rewriting it atomically, dropping nothing', async () => {
    const store = createFileStore({ directory });
    for (let index = 0; index < 5; index += 1)
      await store.append('s1', appended(textMessage(`m${index}`, `t${index}`)));
    const before = await store.read('s1');
    await store.compactLog('s1');
    expect(await store.read('s1')).toStrictEqual(before);
    await store.append('s1', appended(textMessage('m5', 't5')));
    await store.close();
    const reopened = createFileStore({ directory });
    expect((await reopened.read('s1')).map((event) => event.seq)).toStrictEqual([1, 2, 3, 4, 5, 6]);
    await reopened.close();
    expect((await readdir(directory)).filter((name) => name.endsWith('.tmp'))).toStrictEqual([]);
  });
});
