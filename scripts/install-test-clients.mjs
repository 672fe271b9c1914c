// Installs the real agent CLIs the gateway's client tests drive (pnpm test:clients), pinned, into
// .test-clients/ (not part of the workspace: their binaries are large and only these tests need them).
// Idempotent: a version already installed is kept.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TEST_CLIENTS = {
  '@anthropic-ai/claude-code': '2.1.332',
  '@openai/codex': '0.171.0',
  '@google/gemini-cli': '0.61.0',
  '@mariozechner/pi-coding-agent': '0.73.1',
};

const folder = join(import.meta.dirname, '..', '.test-clients');
mkdirSync(folder, { recursive: true });
const manifest = join(folder, 'package.json');
const wanted = JSON.stringify({ name: 'ctxhost-test-clients', private: true, dependencies: TEST_CLIENTS }, null, 2);
const installed = (name) => {
  const file = join(folder, 'node_modules', name, 'package.json');
  return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).version === TEST_CLIENTS[name];
};
if (Object.keys(TEST_CLIENTS).every(installed)) process.exit(0);
writeFileSync(manifest, `${wanted}\n`);
execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: folder, stdio: 'inherit' });
