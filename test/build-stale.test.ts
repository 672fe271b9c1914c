import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildablePackages, isStale } from '../scripts/build-stale.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function at(path: string, seconds: number): void {
  utimesSync(path, seconds, seconds);
}

/** A workspace with one package built at t=200 from sources written at t=100. */
function workspace(): { folder: string } {
  root = mkdtempSync(join(tmpdir(), 'ctxhost-build-stale-'));
  const folder = join(root, 'packages', 'a');
  mkdirSync(join(folder, 'src', 'nested'), { recursive: true });
  mkdirSync(join(folder, 'dist'), { recursive: true });
  writeFileSync(join(root, 'tsconfig.base.json'), '{}');
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: '@x/a', scripts: { build: 'tsc' } }));
  writeFileSync(join(folder, 'tsconfig.build.json'), '{}');
  writeFileSync(join(folder, 'src', 'index.ts'), 'export {};');
  writeFileSync(join(folder, 'src', 'nested', 'deep.ts'), 'export {};');
  writeFileSync(join(folder, 'dist', 'index.js'), 'export {};');
  mkdirSync(join(root, 'packages', 'no-build'));
  writeFileSync(join(root, 'packages', 'no-build', 'package.json'), JSON.stringify({ name: '@x/no-build' }));
  for (const path of [
    join(root, 'tsconfig.base.json'),
    join(folder, 'package.json'),
    join(folder, 'tsconfig.build.json'),
    join(folder, 'src', 'nested', 'deep.ts'),
    join(folder, 'src', 'nested'),
    join(folder, 'src', 'index.ts'),
    join(folder, 'src'),
  ])
    at(path, 100);
  at(join(folder, 'dist', 'index.js'), 200);
  at(join(folder, 'dist'), 200);
  return { folder };
}

describe('build-stale: which packages pnpm demo rebuilds', () => {
  it('lists the packages with a build script', () => {
    workspace();
    expect(buildablePackages(root).map((pkg) => pkg.name)).toEqual(['@x/a']);
  });

  it('skips a package whose dist is newer than all its inputs', () => {
    const { folder } = workspace();
    expect(isStale(folder, root)).toBe(false);
  });

  it.each([
    ['a source file deep in src/', 'src/nested/deep.ts'],
    ['a folder of src/ (a file deleted from it)', 'src/nested'],
    ['package.json', 'package.json'],
    ['tsconfig.build.json', 'tsconfig.build.json'],
  ])('rebuilds when %s is newer than dist/', (_what, file) => {
    const { folder } = workspace();
    at(join(folder, file), 300);
    expect(isStale(folder, root)).toBe(true);
  });

  it('rebuilds when the shared tsconfig.base.json changed, or dist/ is missing', () => {
    const { folder } = workspace();
    at(join(root, 'tsconfig.base.json'), 300);
    expect(isStale(folder, root)).toBe(true);
    at(join(root, 'tsconfig.base.json'), 100);
    rmSync(join(folder, 'dist'), { recursive: true });
    expect(isStale(folder, root)).toBe(true);
  });
});
