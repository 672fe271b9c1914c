/**
 * Builds only the workspace packages whose build is out of date, so `pnpm demo`
 * starts in seconds the second time (it rebuilt all 22 packages on every run:
 * 95% of 88 s on a fresh clone). A package is stale when it has no `dist/`, or
 * when anything under `src/` (a file or a folder: a deleted file touches its
 * folder), its package.json, its tsconfig.build.json or the shared
 * tsconfig.base.json is newer than the newest file in `dist/`. The stale ones
 * are built with pnpm, which orders them by their dependencies.
 *
 *   tsx scripts/build-stale.ts          # build what is stale, say what
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WorkspacePackage {
  name: string;
  folder: string;
}

/** The workspace packages that have a build script (packages/*, plugins/<kind>/*). */
export function buildablePackages(root: string): WorkspacePackage[] {
  const folders = [
    ...children(join(root, 'packages')),
    ...children(join(root, 'plugins')).flatMap((kind) => children(kind)),
  ];
  return folders.flatMap((folder) => {
    const manifest = join(folder, 'package.json');
    if (!existsSync(manifest)) return [];
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; scripts?: Record<string, string> };
    return pkg.scripts?.['build'] === undefined ? [] : [{ name: pkg.name, folder }];
  });
}

/** Whether the package's `dist/` is missing or older than any of its inputs. */
export function isStale(folder: string, root: string): boolean {
  const built = newest(join(folder, 'dist'));
  if (built === undefined) return true;
  const inputs = [
    newest(join(folder, 'src')),
    ...['package.json', 'tsconfig.build.json'].map((file) => mtime(join(folder, file))),
    mtime(join(root, 'tsconfig.base.json')),
  ];
  return inputs.some((time) => time !== undefined && time > built);
}

function children(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(folder, entry.name));
}

function mtime(path: string): number | undefined {
  return existsSync(path) ? statSync(path).mtimeMs : undefined;
}

/** The newest modification time of a folder, its files and subfolders; undefined when it does not exist. */
function newest(folder: string): number | undefined {
  if (!existsSync(folder)) return undefined;
  let latest = statSync(folder).mtimeMs;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    const time = entry.isDirectory() ? newest(path) : statSync(path).mtimeMs;
    if (time !== undefined && time > latest) latest = time;
  }
  return latest;
}

function main(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const stale = buildablePackages(root).filter((pkg) => isStale(pkg.folder, root));
  if (stale.length === 0) {
    console.log('build: every package is up to date');
    return;
  }
  console.log(
    `build: ${stale.length} package${stale.length === 1 ? '' : 's'} out of date: ${stale.map((pkg) => pkg.name).join(', ')}`,
  );
  const pnpm = process.env['npm_execpath'];
  const filters = stale.flatMap((pkg) => ['--filter', pkg.name]);
  const [command, args] =
    pnpm !== undefined && pnpm.includes('pnpm')
      ? [process.execPath, [pnpm, '-r', ...filters, 'run', 'build']]
      : ['npx', ['-y', 'pnpm@10', '-r', ...filters, 'run', 'build']];
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
