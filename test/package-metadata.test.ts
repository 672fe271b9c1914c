import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

interface PackageJson {
  name: string;
  private?: boolean;
  description?: string;
  keywords?: string[];
  license?: string;
  repository?: { type?: string; url?: string; directory?: string };
  engines?: { node?: string };
  type?: string;
  files?: string[];
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
}

function publicPackages(): { folder: string; pkg: PackageJson }[] {
  return ['packages', 'plugins/context_engine']
    .flatMap((parent) => readdirSync(join(root, parent)).map((name) => `${parent}/${name}`))
    .filter((folder) => existsSync(join(root, folder, 'package.json')))
    .map((folder) => ({
      folder,
      pkg: JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as PackageJson,
    }))
    .filter(({ pkg }) => pkg.private !== true);
}

describe('what every published package tells npm', () => {
  it('the repository has the MIT licence the packages declare', () => {
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it.each(publicPackages().map(({ folder, pkg }) => [folder, pkg] as const))('%s', (folder, pkg) => {
    expect(pkg.description, 'description').toMatch(/\S{3,}/);
    expect(pkg.keywords?.length, 'keywords').toBeGreaterThan(0);
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository?.directory).toBe(folder);
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\//);
    expect(pkg.engines?.node).toBe('>=20.19');
    expect(pkg.type).toBe('module');
    expect(pkg.files).toContain('dist');
    expect(existsSync(join(root, folder, 'README.md')), 'README.md').toBe(true);
    for (const [entry, target] of Object.entries(pkg.exports ?? {})) {
      if (typeof target !== 'object' || target === null) continue;
      const conditions = Object.keys(target).filter((condition) => condition !== '@ctxhost/source');
      expect(conditions[0], `exports["${entry}"]: "types" comes first`).toBe('types');
    }
    // pnpm links bins at install, before any build: a bin in dist/ is a "Failed to create bin" warning.
    for (const [command, target] of Object.entries(pkg.bin ?? {})) {
      expect(target, `bin ${command}: a committed launcher, not a build output`).not.toMatch(/^(\.\/)?dist\//);
      expect(existsSync(join(root, folder, target)), `bin ${command}: ${target} exists`).toBe(true);
      expect(pkg.files, `bin ${command}: its folder is in files`).toContain(target.replace(/^\.\//, '').split('/')[0]);
    }
  });
});
