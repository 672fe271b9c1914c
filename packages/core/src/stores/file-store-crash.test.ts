import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from './file-store.js';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const fileStoreSource = fileURLToPath(new URL('./file-store.ts', import.meta.url));

/** Appends in bursts of four concurrent appends, printing `seq messageId` as each one is acknowledged. */
const childScript = `
import { createFileStore } from ${JSON.stringify(fileStoreSource)};
const [directory, payloadSize] = process.argv.slice(2);
const store = createFileStore({ directory });
const filler = 'x'.repeat(Number(payloadSize));
let next = 0;
for (;;) {
  await Promise.all(Array.from({ length: 4 }, async () => {
    const index = next++;
    const message = { id: 'm' + index, role: 'user', parts: [{ id: 'p' + index, type: 'text', text: index + ':' + filler }] };
    const stored = await store.append('crash', { type: 'message.appended', message });
    process.stdout.write(stored.seq + ' m' + index + '\\n');
  }));
}
`;

interface Acknowledged {
  seq: number;
  messageId: string;
}

/** Runs the child until it has acknowledged `killAfter` appends, then SIGKILLs it `killDelayMs` later, mid-burst. */
async function runAndKill(
  scriptPath: string,
  directory: string,
  run: { payloadSize: number; killAfter: number; killDelayMs: number },
): Promise<Acknowledged[]> {
  const { payloadSize, killAfter, killDelayMs } = run;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@ctxhost/source', scriptPath, directory, String(payloadSize)],
    {
      cwd: repositoryRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const acknowledged: Acknowledged[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    const [seq, messageId] = line.split(' ');
    acknowledged.push({ seq: Number(seq), messageId: messageId ?? '' });
    if (acknowledged.length === killAfter) setTimeout(() => child.kill('SIGKILL'), killDelayMs);
  }
  await exited;
  if (acknowledged.length < killAfter)
    throw new Error(`the child stopped before ${killAfter} acknowledgements: ${errors}`);
  return acknowledged;
}

let workDirectory: string;
beforeEach(async () => {
  workDirectory = await mkdtemp(join(tmpdir(), 'ctxhost-crash-'));
});
afterEach(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

describe('file store under SIGKILL', () => {
  it('reopens with every acknowledged event, whatever the kill point', { timeout: 120_000 }, async () => {
    const scriptPath = join(workDirectory, 'append-burst.mts');
    await writeFile(scriptPath, childScript);
    const randomInteger = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));
    const runs = [
      { payloadSize: 64 * 1024, killAfter: randomInteger(5, 40), killDelayMs: randomInteger(0, 20) },
      { payloadSize: 1024 * 1024, killAfter: randomInteger(2, 10), killDelayMs: randomInteger(0, 20) },
      { payloadSize: 100, killAfter: randomInteger(20, 200), killDelayMs: randomInteger(0, 5) },
      { payloadSize: 8 * 1024, killAfter: randomInteger(10, 100), killDelayMs: randomInteger(0, 10) },
    ];
    for (const [index, run] of runs.entries()) {
      const directory = join(workDirectory, `store-${index}`);
      const acknowledged = await runAndKill(scriptPath, directory, run);
      const store = createFileStore({ directory });
      const events = await store.read('crash');
      await store.close();
      const context = `run ${JSON.stringify(run)}: ${acknowledged.length} acknowledged, ${events.length} stored`;
      expect(
        events.map((event) => event.seq),
        context,
      ).toStrictEqual(events.map((_, position) => position + 1));
      expect(events.length, context).toBeGreaterThanOrEqual(acknowledged.length);
      for (const { seq, messageId } of acknowledged) {
        const event = events[seq - 1];
        expect(event?.type === 'message.appended' ? event.message.id : undefined, context).toBe(messageId);
      }
    }
  });
});
