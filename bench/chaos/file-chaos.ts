import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createFileStore, createHost, type StoredEvent } from '@ctxhost/core';

const coreSource = fileURLToPath(new URL('../../packages/core/src/index.ts', import.meta.url));

/** The child: `fill <dir> <failures>` appends ~3 KB events until that many failed; `race <dir> <startAt> <name>` takes the session at a shared instant, appends 10, holds until stdin ends. */
const childSource = `
import { createFileStore } from ${JSON.stringify(coreSource)};
const [mode, directory, a, b] = process.argv.slice(2);
const store = createFileStore({ directory });
const event = (id) => ({ type: 'message.appended', message: { id, role: 'user', parts: [{ id: id + ':0', type: 'text', text: id + ' ' + 'x'.repeat(3000) }] } });
if (mode === 'fill') {
  let failures = 0;
  for (let index = 0; failures < Number(a); index += 1) {
    try { await store.append('full', event('m' + index)); process.stdout.write('ok m' + index + '\\n'); }
    catch (error) { failures += 1; process.stdout.write('err ' + (error.code ?? error.message) + '\\n'); }
  }
} else {
  while (Date.now() < Number(a)) {}
  try { for (let index = 0; index < 10; index += 1) { await store.append('raced', event(b + '-' + index)); process.stdout.write('ok ' + b + '-' + index + '\\n'); } }
  catch (error) { process.stdout.write('err ' + (error.code ?? error.message) + '\\n'); }
  process.stdout.write('done\\n');
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
}
await store.close();
`;

export interface FileChaos {
  run<T>(fn: (work: string, child: string) => Promise<T>): Promise<T>;
}

export async function withChild<T>(fn: (work: string, child: string) => Promise<T>): Promise<T> {
  const work = await mkdtemp(join(tmpdir(), 'ctxhost-chaos-'));
  try {
    const source = join(work, 'child-source.mjs');
    await writeFile(source, childSource);
    const child = join(work, 'child.mjs');
    await build({
      entryPoints: [source],
      outfile: child,
      bundle: true,
      platform: 'node',
      format: 'esm',
      conditions: ['@ctxhost/source'],
      logLevel: 'error',
      external: ['esbuild'],
      // Aliased: a bundled module imports createRequire itself, and a second declaration kept the child from loading.
      banner: {
        js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
      },
    });
    return await fn(work, child);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function runChild(
  child: string,
  args: string[],
  fileLimitKib?: number,
  onDone?: () => void,
  release?: Promise<void>,
): Promise<string[]> {
  const command = `${fileLimitKib === undefined ? '' : `ulimit -f ${fileLimitKib}; `}exec "$0" "$@"`;
  const process_ = spawn('bash', ['-c', command, process.execPath, child, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  let done = false;
  process_.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  process_.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!done && output.includes('done\n')) {
      done = true;
      onDone?.();
    }
  });
  if (release === undefined) process_.stdin.end();
  else void release.then(() => process_.stdin.end());
  return new Promise((resolve, reject) =>
    process_.once('exit', (code) => {
      // A child that cannot run acknowledges nothing, which would read as nothing lost.
      if (code !== 0) reject(new Error(`chaos child ${args[0]} exited with ${code}: ${errors.slice(0, 500)}`));
      else
        resolve(
          output
            .trim()
            .split('\n')
            .filter((line) => line !== '' && line !== 'done'),
        );
    }),
  );
}

const messageIds = (events: StoredEvent[]) =>
  events.flatMap((event) => (event.type === 'message.appended' ? [event.message.id] : []));

/** Appends under `ulimit -f` until several appends failed; then reopens with room and appends once more. */
export async function sizeLimit(work: string, child: string, limitKib: number) {
  const directory = join(work, `fsize-${limitKib}`);
  const lines = await runChild(child, ['fill', directory, '5'], limitKib);
  const acknowledged = lines.filter((line) => line.startsWith('ok ')).map((line) => line.slice(3));
  const failures = lines.filter((line) => line.startsWith('err ')).map((line) => line.slice(4));
  const store = createFileStore({ directory });
  let opens: boolean;
  let stored: string[] = [];
  try {
    stored = messageIds(await store.read('full'));
    await store.append('full', {
      type: 'message.appended',
      message: { id: 'after', role: 'user', parts: [{ id: 'after:0', type: 'text', text: 'room again' }] },
    });
    await store.close();
    const again = createFileStore({ directory });
    opens = messageIds(await again.read('full')).at(-1) === 'after';
    await again.close();
  } catch {
    opens = false;
  }
  const lost = acknowledged.filter((id) => !stored.includes(id)).length;
  return {
    limitKib,
    acknowledged: acknowledged.length,
    stored: stored.length,
    lost,
    unacknowledgedStored: stored.filter((id) => !acknowledged.includes(id)).length,
    failures: [...new Set(failures)],
    reopensAfterRoom: opens,
  };
}

/** `rounds` times: six processes take over one dead lock at the same instant and hold it until all tried. */
export async function lockRaces(work: string, child: string, rounds: number) {
  let doubleOwners = 0;
  let acknowledged = 0;
  let stored = 0;
  let unreadable = 0;
  for (let round = 0; round < rounds; round += 1) {
    const directory = join(work, `race-${round}`);
    const seeded = createFileStore({ directory });
    await seeded.append('raced', {
      type: 'message.appended',
      message: { id: 'seed', role: 'user', parts: [{ id: 'seed:0', type: 'text', text: 'seed' }] },
    });
    await seeded.close();
    const lockFile = (await readdir(directory)).find((name) => name.endsWith('.jsonl'))!;
    await writeFile(
      join(directory, `${lockFile}.lock`),
      JSON.stringify({ pid: 2 ** 22 + 4321, hostname: hostname(), token: '0000dead-0000-0000-0000-000000000000' }),
    );
    const startAt = Date.now() + 900;
    let left = 6;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const outputs = await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((name) =>
        runChild(
          child,
          ['race', directory, String(startAt), name],
          undefined,
          () => (left -= 1) === 0 && release(),
          released,
        ),
      ),
    );
    const acked = outputs.map((lines) => lines.filter((line) => line.startsWith('ok ')).map((line) => line.slice(3)));
    if (acked.filter((ids) => ids.length > 0).length > 1) doubleOwners += 1;
    acknowledged += acked.flat().length;
    try {
      const store = createFileStore({ directory });
      const ids = messageIds(await store.read('raced'));
      stored += ids.filter((id) => id !== 'seed').length;
      await store.close();
    } catch {
      unreadable += 1;
    }
  }
  return {
    rounds,
    processesPerRound: 6,
    roundsWithTwoOwners: doubleOwners,
    acknowledged,
    stored,
    logsUnreadable: unreadable,
  };
}

/** One host, `sessions` sessions one after another (an append each), idle release after `idleSeconds`: peak open files and locks, everything stored. */
export async function manySessions(work: string, sessions: number, idleSeconds: number) {
  const directory = join(work, 'many');
  const store = createFileStore({ directory });
  const host = createHost({ store, config: { store: { kind: 'file', releaseIdleAfterSeconds: idleSeconds } } });
  const openFiles = async () => (await readdir('/proc/self/fd')).length;
  const baseline = await openFiles();
  let peak = 0;
  let failures = 0;
  for (let index = 0; index < sessions; index += 1) {
    try {
      const session = await host.session(`many-${index}`);
      await session.append({
        id: `m${index}`,
        role: 'user',
        parts: [{ id: `m${index}:0`, type: 'text', text: `session ${index}` }],
      });
    } catch {
      failures += 1;
    }
    if (index % 50 === 0) peak = Math.max(peak, (await openFiles()) - baseline);
  }
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000 * 2 + 200));
  const afterIdle = (await openFiles()) - baseline;
  const locksAfterIdle = (await readdir(directory)).filter((name) => name.endsWith('.lock')).length;
  await host.dispose();
  const reader = createFileStore({ directory });
  let stored = 0;
  for (const id of await reader.list()) stored += (await reader.read(id)).length;
  await reader.close();
  return { sessions, failures, stored, peakExtraOpenFiles: peak, extraOpenFilesAfterIdle: afterIdle, locksAfterIdle };
}
