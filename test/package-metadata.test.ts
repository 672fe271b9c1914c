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
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
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

/** The lowest Node a `>=X.Y[.Z]` range admits (other range forms: undefined). */
function minimumNode(range: string | undefined): string {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range?.trim() ?? '');
  return match ? `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}` : '0.0.0';
}

function compareVersions(left: string, right: string): number {
  const a = left.split('.').map(Number);
  const b = right.split('.').map(Number);
  for (let index = 0; index < 3; index++)
    if ((a[index] ?? 0) !== (b[index] ?? 0)) return (a[index] ?? 0) - (b[index] ?? 0);
  return 0;
}

/** Each installed dependency (workspace ones too) whose own engines ask for a newer Node than 20.19. */
function dependencyNodeMinimums(folder: string, pkg: PackageJson): [string, string][] {
  return Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }).flatMap((name): [string, string][] => {
    const file = join(root, folder, 'node_modules', name, 'package.json');
    if (!existsSync(file)) return [];
    const dependency = JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
    const needs = minimumNode(dependency.engines?.node);
    return compareVersions(needs, '20.19.0') > 0 ? [[name, needs]] : [];
  });
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
    // Every package declares Node 20.19 (the workspace and CI run on Node 20; a higher engines field makes every pnpm
    // command there warn). A dependency that declares a newer Node (ai 7's packages, openai 7) is named in the
    // package's README beside the Node it needs, where an npm user reads it: on Node 20, npm quietly resolves an
    // older major of such a package when the user installs it without a version (@ai-sdk/anthropic 3 for 4).
    expect(pkg.engines?.node).toBe('>=20.19');
    const readme = readFileSync(join(root, folder, 'README.md'), 'utf8');
    for (const [dependency, needs] of dependencyNodeMinimums(folder, pkg)) {
      const major = needs.split('.')[0];
      expect(readme, `README: ${dependency} declares Node ${needs}`).toMatch(
        new RegExp(
          `Node ${major}[^\\n]*${dependency.replace(/[/.@]/g, (c) => `\\${c}`)}|${dependency.replace(/[/.@]/g, (c) => `\\${c}`)}[^\\n]*Node ${major}`,
        ),
      );
    }
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
