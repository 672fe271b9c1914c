import { describe, expect, it } from 'vitest';
import { pathsIn } from './paths-in.js';

describe('pathsIn', () => {
  it.each([
    ['edit src/app.ts:12 and ./lib/util.js.', ['src/app.ts', './lib/util.js']],
    ['see ~/.config/ctxhost/config.yaml', ['~/.config/ctxhost/config.yaml']],
    ['run ../scripts/build.sh then open README.md', ['../scripts/build.sh', 'README.md']],
    ['{"file_path":"/repo/packages/core/src/index.ts"}', ['/repo/packages/core/src/index.ts']],
    ['version 1.25 and e.g. nothing', []],
    ['a URL https://example.com/a/b.html', ['//example.com/a/b.html']],
  ])('finds the paths in %j', (text, paths) => {
    expect(pathsIn(text)).toStrictEqual(paths);
  });

  // The regex this replaced took 15.6 s on an 80 KB slash-heavy message: quadratic. Compare 1 MB with 4 MB.
  it.each([
    ['slashes', 'a/'],
    ['dotted segments', 'a.b/'],
    ['dots', 'a.'],
  ])('takes time linear in the text on %s', (_name, unit) => {
    // The fastest of three runs, and at least 5 ms, so a pause on a busy machine does not decide.
    const time = (text: string): number => {
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 3; round++) {
        const start = performance.now();
        pathsIn(text);
        best = Math.min(best, performance.now() - start);
      }
      return Math.max(5, best);
    };
    const small = unit.repeat(500_000 / unit.length);
    const large = unit.repeat(2_000_000 / unit.length);
    expect(time(large) / time(small)).toBeLessThan(10);
  });
});
