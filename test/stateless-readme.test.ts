import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The first ```ts block under a README heading. */
async function snippetUnder(readme: string, heading: string): Promise<string> {
  const text = await readFile(join(ROOT, readme), 'utf8');
  const section = text.slice(text.indexOf(`\n${heading}\n`));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (match === null) throw new Error(`${readme}: no ts block under "${heading}"`);
  return match[1]!;
}

describe('README snippets of the stateless path', () => {
  it('core README, "The stateless path": runs as written and prints what its comment says', async () => {
    const snippet = await snippetUnder('packages/core/README.md', '## The stateless path');
    // Inside the workspace, so `@ctxhost/core` resolves as it does for a user who installed it.
    const folder = await mkdtemp(join(ROOT, 'test', '.readme-stateless-'));
    const logged = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await writeFile(join(folder, 'snippet.ts'), snippet);
      await import(join(folder, 'snippet.ts'));
      expect(logged.mock.calls.map((call) => String(call[0]))).toContain('sent 1 message(s)');
    } finally {
      logged.mockRestore();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
