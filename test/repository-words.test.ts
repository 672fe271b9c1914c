import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** The repository's own code and prose, as git tracks it (fixtures, and this file's own patterns, left out). */
function trackedSources(): string[] {
  return execFileSync('git', ['ls-files', '*.ts', '*.mts', '*.mjs', '*.md'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((path) => path !== '' && !path.startsWith('test/fixtures/') && path !== 'test/repository-words.test.ts');
}

function linesMatching(pattern: RegExp): string[] {
  return trackedSources().flatMap((path) =>
    readFileSync(join(root, path), 'utf8')
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe('the repository speaks of what a reader of it can see', () => {
  it('names no "seed" document, no issue number and no API-FACTS.md (the real sources are in docs/)', () => {
    expect(linesMatching(/\bthe seed\b/i)).toEqual([]);
    expect(linesMatching(/\bissue #?\d+/i)).toEqual([]);
    expect(linesMatching(/API-FACTS/)).toEqual([]);
  });

  it('keeps the root README short, the quick start before the package list', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    const headings = readme.split('\n').filter((line) => line.startsWith('## '));
    const quickStart = headings.findIndex((heading) => /quick start/i.test(heading));
    expect(quickStart).toBeGreaterThanOrEqual(0);
    expect(quickStart).toBeLessThan(headings.findIndex((heading) => /packages/i.test(heading)));
  });
});
