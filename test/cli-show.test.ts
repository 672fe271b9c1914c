import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus, runCtxhost } from './cli-run-bin.js';

const TRANSCRIPT = corpus('claude-code/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
let folder = '';
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ctxhost-show-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});
const run = (args: string[]) => runCtxhost(args, { cwd: folder, env: { CTXHOST_CONFIG_DIR: folder } });

describe('ctxhost show', () => {
  it('prints a compaction of a real transcript: fidelity, summary, the dropped span, and an original by handle', async () => {
    const shown = await run(['show', TRANSCRIPT, '--window', '30000']);
    expect(shown.stderr).toBe('');
    expect(shown.stdout).toMatch(/^compaction 1 of 1: compressor \(manual\), [\d,]+ → [\d,]+ tokens/);
    expect(shown.stdout).toMatch(/── dropped span: \d+ messages/);
    const handle = /Covered messages: ctxhost_original handle (summary-[0-9a-f]+)#1/.exec(shown.stdout)![1]!;
    const original = await run(['show', TRANSCRIPT, '--window', '30000', '--original', `${handle}#2`]);
    expect(original.stdout).toMatch(/^Lines 1-\d+ of \d+ of the original message /);
  });

  it('says which compactions exist, and how to name a session', async () => {
    const missing = await run(['show', TRANSCRIPT, '--window', '30000', '--compaction', '3']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('has 1 compaction, not 3');
    const unknown = await run(['show', 'no-such-session', '--store', join(folder, 'store')]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('is neither a file nor a session in the store');
  });
});
