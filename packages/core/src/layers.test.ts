import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The folders of core's src/ and their layer (README, "Map of src/"): a folder
 * may import only from folders of a lower layer, and `errors.ts`. The index is
 * the door above them all. Tests are left out: they may reach across layers.
 */
const LAYERS: Record<string, number> = {
  model: 0,
  'model-registry': 1,
  adapters: 1,
  tokens: 1,
  stores: 1,
  config: 2,
  engines: 3,
  fidelity: 3,
  host: 4,
  stateless: 5,
};

const source = dirname(fileURLToPath(import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.test(-helper)?\.ts$|\.test-d\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every relative import of a file (static, dynamic, type-only), as a path relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g)].map((match) =>
    relative(source, normalize(join(dirname(file), `${match[1]}.ts`))),
  );
}

const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '.');

describe('core src/ layering', () => {
  it('has a layer for every folder', () => {
    const folders = readdirSync(source, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => LAYERS[folder] === undefined)).toEqual([]);
  });

  it('imports only point down: each folder imports from lower layers and errors.ts, never from index.ts', () => {
    const upward: string[] = [];
    for (const file of sourceFiles(source)) {
      const from = relative(source, file);
      const layer = LAYERS[folderOf(from)];
      if (layer === undefined) continue;
      for (const target of importsOf(file)) {
        const folder = folderOf(target);
        const allowed =
          folder === folderOf(from) || target === 'errors.ts' || (LAYERS[folder] ?? Number.POSITIVE_INFINITY) < layer;
        if (!allowed) upward.push(`${from} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
