import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('gateway README', () => {
  it('"Mount it in your own server" runs as written and prints what its comment says', async () => {
    const text = await readFile(join(ROOT, 'packages/gateway/README.md'), 'utf8');
    const section = text.slice(text.indexOf('\n## Mount it in your own server\n'));
    const snippet = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(snippet).toBeDefined();
    const folder = await mkdtemp(join(ROOT, 'test', '.readme-gateway-'));
    const logged = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await writeFile(join(folder, 'snippet.ts'), snippet!);
      await import(join(folder, 'snippet.ts'));
      expect(logged.mock.calls.map((call) => call[0])).toContain(200);
    } finally {
      logged.mockRestore();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
