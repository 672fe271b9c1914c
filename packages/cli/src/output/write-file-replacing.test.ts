import { lstat, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileReplacing } from './write-file-replacing.js';

describe('writeFileReplacing', () => {
  it('replaces a planted symlink instead of writing through it', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ctxhost-report-'));
    const victim = join(folder, 'victim.txt');
    await writeFile(victim, 'precious');
    const report = join(folder, 'demo-report.html');
    await symlink(victim, report);
    await writeFileReplacing(report, '<html>report</html>');
    expect(await readFile(victim, 'utf8')).toBe('precious');
    expect((await lstat(report)).isSymbolicLink()).toBe(false);
    expect(await readFile(report, 'utf8')).toBe('<html>report</html>');
  });
});
