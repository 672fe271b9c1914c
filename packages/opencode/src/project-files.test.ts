import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProjectFiles } from './project-files.js';

describe('readProjectFiles (the opencode plugin’s rehydrate tap)', () => {
  let base = '';
  let project = '';
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'ctxhost-project-files-'));
    project = join(base, 'project');
    await mkdir(join(project, 'src'), { recursive: true });
    await writeFile(join(project, 'src/app.ts'), 'export const app = 2;\n');
    await writeFile(join(base, 'secret.env'), 'TOKEN=outside\n');
    await symlink(join(base, 'secret.env'), join(project, 'src/link.env'));
  });
  afterAll(async () => rm(base, { recursive: true, force: true }));

  it('reads files inside the project as they are now, relative to it, and says which ones are gone', async () => {
    const files = await readProjectFiles(project, [join(project, 'src/app.ts'), 'src/deleted.ts']);
    expect(files).toEqual([
      { path: 'src/app.ts', content: 'export const app = 2;\n' },
      { path: 'src/deleted.ts', content: '', gone: true },
    ]);
  });

  it('never reads or names a path outside the project, nor through a link that leaves it', async () => {
    const files = await readProjectFiles(project, [
      join(base, 'secret.env'),
      '../secret.env',
      'src/link.env',
      '/etc/passwd',
    ]);
    expect(files).toEqual([]);
  });
});
