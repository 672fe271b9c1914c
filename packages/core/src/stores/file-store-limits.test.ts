import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { createFileStore } from './file-store.js';
import { processStartTime } from './lock-owner.js';
import { sessionFileStem } from './session-file-name.js';
import type { StoredEvent } from './session-store.js';

const fileStoreSource = fileURLToPath(new URL('./file-store.ts', import.meta.url));

/**
 * The child, bundled once. `fill <dir> <failures>`: appends ~3 KB events until
 * `failures` appends have failed, printing `ok <seq> <id>` or `err <code>`.
 * `race <dir> <startAt> <name>`: waits for the shared start instant, then
 * appends 10 events, printing `ok …` for each or `err <code>` once, then `done`,
 * and holds the session until its stdin ends.
 */
const childSource = `
import { createFileStore } from ${JSON.stringify(fileStoreSource)};
const [mode, directory, a, b] = process.argv.slice(2);
const store = createFileStore({ directory });
const event = (id) => ({ type: 'message.appended', message: { id, role: 'user', parts: [{ id: id + ':0', type: 'text', text: id + ' ' + 'x'.repeat(3000) }] } });
if (mode === 'fill') {
  let failures = 0;
  for (let index = 0; failures < Number(a); index += 1) {
    try {
      const stored = await store.append('full', event('m' + index));
      process.stdout.write('ok ' + stored.seq + ' m' + index + '\\n');
    } catch (error) {
      failures += 1;
      process.stdout.write('err ' + (error.code ?? 'none') + '\\n');
    }
  }
} else {
  while (Date.now() < Number(a)) {}
  try {
    for (let index = 0; index < 10; index += 1) {
      const stored = await store.append('raced', event(b + '-' + index));
      process.stdout.write('ok ' + stored.seq + ' ' + b + '-' + index + '\\n');
    }
  } catch (error) {
    process.stdout.write('err ' + (error.code ?? error.message) + '\\n');
  }
  // Hold the session until every contender has tried (the parent then closes stdin): only overlapping holders would be a double take-over.
  process.stdout.write('done\\n');
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
}
await store.close();
`;

let workDirectory: string;
let childPath: string;
beforeAll(async () => {
  workDirectory = await mkdtemp(join(tmpdir(), 'ctxhost-limits-'));
  const source = join(workDirectory, 'child-source.mjs');
  await writeFile(source, childSource);
  childPath = join(workDirectory, 'child.mjs');
  await build({
    entryPoints: [source],
    outfile: childPath,
    bundle: true,
    platform: 'node',
    format: 'esm',
    conditions: ['@ctxhost/source'],
    logLevel: 'error',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
}, 30_000);
afterAll(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

/** Runs the child in a shell with `ulimit -f <kib>` when given (Node ignores SIGXFSZ, so writes past it get short counts, then EFBIG). */
function runChild(
  args: string[],
  fileLimitKib?: number,
  holding?: { done: Promise<void>; tried(): void },
): Promise<string[]> {
  const command = `${fileLimitKib === undefined ? '' : `ulimit -f ${fileLimitKib}; `}exec "$0" "$@"`;
  const child = spawn('bash', ['-c', command, process.execPath, childPath, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  let tried = false;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!tried && output.includes('done\n')) {
      tried = true;
      holding?.tried();
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  if (holding === undefined) child.stdin.end();
  else void holding.done.then(() => child.stdin.end());
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(
            output
              .trim()
              .split('\n')
              .filter((line) => line !== '' && line !== 'done'),
          )
        : reject(new Error(`child exited ${code}: ${errors}`)),
    ),
  );
}

/** Lets `count` children hold what they took until every one of them has tried. */
function holdUntilAllTried(count: number): { done: Promise<void>; tried(): void } {
  let left = count;
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, tried: () => (left -= 1) === 0 && release() };
}

const messageIdOf = (event: StoredEvent) => (event.type === 'message.appended' ? event.message.id : event.type);
const acknowledgedIds = (lines: string[]) =>
  lines.filter((line) => line.startsWith('ok ')).map((line) => line.split(' ')[2]!);

describe('file store at a file-size limit', () => {
  it(
    'never acknowledges a half-written append: each failure is cut back, and the log reopens with exactly what was acknowledged',
    { timeout: 30_000 },
    async () => {
      const directory = join(workDirectory, 'fsize');
      const lines = await runChild(['fill', directory, '4'], 64);
      const acknowledged = acknowledgedIds(lines);
      expect(acknowledged.length).toBeGreaterThan(5);
      expect(lines.filter((line) => line.startsWith('err ')).length).toBe(4);

      const store = createFileStore({ directory });
      expect((await store.read('full')).map(messageIdOf)).toStrictEqual(acknowledged);
      // With room again, appends land after the last complete line and the log still opens.
      await store.append('full', {
        type: 'message.appended',
        message: { id: 'after', role: 'user', parts: [{ id: 'after:0', type: 'text', text: 'room again' }] },
      });
      await store.close();
      const reopened = createFileStore({ directory });
      expect((await reopened.read('full')).map(messageIdOf)).toStrictEqual([...acknowledged, 'after']);
      await reopened.close();
    },
  );
});

describe('file store lock takeover', () => {
  const deadOwner = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      pid: 2 ** 22 + 4321,
      hostname: hostname(),
      token: '0000dead-0000-0000-0000-000000000000',
      ...extra,
    });

  it(
    'lets exactly one of several processes take over a dead lock at the same instant',
    { timeout: 60_000 },
    async () => {
      for (let round = 0; round < 2; round += 1) {
        const directory = join(workDirectory, `race-${round}`);
        const seeded = createFileStore({ directory });
        await seeded.append('raced', {
          type: 'message.appended',
          message: { id: 'seed', role: 'user', parts: [{ id: 'seed:0', type: 'text', text: 'seed' }] },
        });
        await seeded.close();
        await writeFile(join(directory, `${sessionFileStem('raced')}.jsonl.lock`), deadOwner());
        const startAt = Date.now() + 900;
        const names = ['a', 'b', 'c', 'd', 'e', 'f'];
        const holding = holdUntilAllTried(names.length);
        const outputs = await Promise.all(
          names.map((name) => runChild(['race', directory, String(startAt), name], undefined, holding)),
        );
        const winners = outputs.filter((lines) => acknowledgedIds(lines).length > 0);
        expect(winners, `round ${round}: ${JSON.stringify(outputs)}`).toHaveLength(1);
        for (const lines of outputs)
          if (acknowledgedIds(lines).length === 0) expect(lines).toStrictEqual([`err ${CORE_ERROR_CODES.storeInUse}`]);
        const store = createFileStore({ directory });
        expect((await store.read('raced')).map(messageIdOf)).toStrictEqual(['seed', ...acknowledgedIds(winners[0]!)]);
        await store.close();
      }
    },
  );

  it('takes over a live pid that is not the owner (pid reuse), another boot, and another host’s lock once its heartbeat stopped', async () => {
    const directory = join(workDirectory, 'owners');
    const lock = join(directory, `${sessionFileStem('s')}.jsonl.lock`);
    const store = createFileStore({ directory });
    await store.append('s', {
      type: 'message.appended',
      message: { id: 'm', role: 'user', parts: [{ id: 'm:0', type: 'text', text: 'x' }] },
    });
    await store.close();
    const cases = [
      deadOwner({ pid: process.pid, startTime: String(Number(processStartTime(process.pid)) + 1) }),
      deadOwner({ pid: process.pid, bootId: 'another-boot' }),
      deadOwner({ pid: process.pid, hostname: 'another-host' }),
    ];
    for (const content of cases) {
      await writeFile(lock, content);
      if (content.includes('another-host'))
        await utimes(lock, new Date(Date.now() - 10 * 60_000), new Date(Date.now() - 10 * 60_000));
      const opened = createFileStore({ directory });
      expect(await opened.read('s'), content).toHaveLength(1);
      await opened.close();
    }
    // Another host's lock with a fresh heartbeat is a live owner.
    await writeFile(lock, deadOwner({ pid: 1, hostname: 'another-host' }));
    const refused = await createFileStore({ directory })
      .read('s')
      .catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(refused, CORE_ERROR_CODES.storeInUse)).toBe(true);
  });
});

describe('file store housekeeping', () => {
  it('removes a log rewrite’s leftover draft when the session is opened', async () => {
    const directory = join(workDirectory, 'drafts');
    const store = createFileStore({ directory });
    await store.append('d', {
      type: 'message.appended',
      message: { id: 'm', role: 'user', parts: [{ id: 'm:0', type: 'text', text: 'x' }] },
    });
    await store.close();
    const draft = join(directory, `${sessionFileStem('d')}.jsonl.0b6d7a3e-5f7e-4c1b-9a43-3f6a2f6b1c2d.tmp`);
    await writeFile(draft, 'x'.repeat(10_000));
    const reopened = createFileStore({ directory });
    await reopened.read('d');
    expect(await readdir(directory)).not.toContain(draft.split('/').at(-1));
    await reopened.close();
  });

  it('lists a session whose header is longer than 64 KB (an old log with a long id)', async () => {
    const directory = join(workDirectory, 'long-ids');
    const store = createFileStore({ directory });
    await store.list();
    const longId = 'L'.repeat(70_000);
    await writeFile(
      join(directory, 'long.jsonl'),
      `${JSON.stringify({ format: 'ctxhost-session-log', version: 1, sessionId: longId })}\n`,
    );
    expect(await store.list()).toStrictEqual([longId]);
    await store.close();
  });

  it('refuses ids with lone surrogates, NUL or over 1,024 bytes, like the PostgreSQL store', async () => {
    const store = createFileStore({ directory: join(workDirectory, 'ids') });
    for (const id of ['a\ud800', 'nul\u0000', 'x'.repeat(1025)]) {
      const error = await store
        .append(id, {
          type: 'message.appended',
          message: { id: 'm', role: 'user', parts: [{ id: 'm:0', type: 'text', text: 'x' }] },
        })
        .catch((caught: unknown) => caught);
      expect(CtxhostError.hasCode(error, CORE_ERROR_CODES.storeIdInvalid)).toBe(true);
    }
    await store.close();
    expect(await readFile(join(workDirectory, 'ids', 'missing')).catch(() => 'none')).toBe('none');
  });
});
