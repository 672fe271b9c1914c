import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import type { Message } from '../model/message.js';
import { createFileStore } from '../stores/file-store.js';
import { createMemoryStore } from '../stores/memory-store.js';
import type { SessionStore } from '../stores/session-store.js';
import { createHost } from './create-host.js';

const message = (id: string): Message => ({
  id,
  role: 'user',
  parts: [{ id: `${id}:0`, type: 'text', text: `text of ${id}` }],
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const openFiles = async () => (await readdir('/proc/self/fd')).length;

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'ctxhost-lifecycle-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('event ids on every append', () => {
  it('stores a retried append once when the first reply was lost (the store had it)', async () => {
    const inner = createMemoryStore();
    let loseNextReply = false;
    // A store whose first append succeeds but whose answer never arrives, as when a commit reply is lost.
    const store: SessionStore = {
      ...inner,
      kind: 'lossy',
      async append(sessionId, event, options) {
        const stored = await inner.append(sessionId, event, options);
        if (loseNextReply && event.type === 'message.appended') {
          loseNextReply = false;
          throw new Error('connection lost before the reply');
        }
        return stored;
      },
    };
    const host = createHost({ store });
    const session = await host.session('s');
    await session.append(message('m0'));
    loseNextReply = true;
    await expect(session.append(message('m1'))).rejects.toThrow('connection lost');
    await session.append(message('m1'));
    const stored = (await inner.read('s')).filter((event) => event.type === 'message.appended');
    expect(stored.map((event) => (event.type === 'message.appended' ? event.message.id : ''))).toStrictEqual([
      'm0',
      'm1',
    ]);
    expect(session.messages().map((entry) => entry.id)).toStrictEqual(['m0', 'm1']);
    // The same message appended again on purpose, after it was acknowledged, is stored again.
    await session.append(message('m1'));
    expect((await inner.read('s')).filter((event) => event.type === 'message.appended')).toHaveLength(3);
    await host.dispose();
  });
});

describe('releasing idle sessions', () => {
  it('lets go of an idle session (handle, lock, memory): another store may open it, the host reopens it with everything', async () => {
    const store = createFileStore({ directory });
    const host = createHost({ store, config: { store: { kind: 'file', releaseIdleAfterSeconds: 0.05 } } });
    const session = await host.session('s');
    await session.append(message('m0'));
    await sleep(300);
    // Another process's store (here: another store) can open it now.
    const other = createFileStore({ directory });
    expect(await other.read('s')).toHaveLength(1);
    await other.close();
    const stale = await session.append(message('late')).catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(stale, CORE_ERROR_CODES.sessionReleased)).toBe(true);
    const again = await host.session('s');
    expect(again).not.toBe(session);
    await again.append(message('m1'));
    expect(again.messages().map((entry) => entry.id)).toStrictEqual(['m0', 'm1']);
    await host.dispose();
  });

  it('keeps file handles bounded over many sessions, and releases on session.idle when asked', async () => {
    const store = createFileStore({ directory });
    const host = createHost({
      store,
      config: { store: { kind: 'file', releaseIdleAfterSeconds: 0.05, releaseOnSessionIdle: true } },
    });
    const before = await openFiles();
    for (let index = 0; index < 150; index += 1) {
      const session = await host.session(`s${index}`);
      await session.append(message(`m${index}`));
      if (index % 2 === 0) await host.emit('session.idle', { sessionId: `s${index}` });
    }
    // Half were released at once on session.idle.
    expect(await openFiles()).toBeLessThan(before + 85);
    await sleep(300);
    expect(await openFiles()).toBeLessThan(before + 10);
    expect((await readdir(directory)).filter((name) => name.endsWith('.lock'))).toStrictEqual([]);
    expect((await host.session('s7')).messages().map((entry) => entry.id)).toStrictEqual(['m7']);
    await host.dispose();
  });

  it('never releases a session while an operation or a task of it is under way', async () => {
    const host = createHost({ config: { store: { kind: 'memory', releaseIdleAfterSeconds: 0.01 } } });
    const session = await host.session('busy');
    let finish!: () => void;
    const task = host.tasks.run('slow', 'busy', () => new Promise<void>((resolve) => (finish = resolve)));
    await sleep(100);
    expect(await host.releaseSession('busy')).toBe(false);
    await session.append(message('m0'));
    finish();
    await task;
    expect(await host.releaseSession('busy')).toBe(true);
    await host.dispose();
  });
});
