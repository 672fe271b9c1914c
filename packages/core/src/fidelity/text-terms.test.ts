import { describe, expect, it } from 'vitest';
import { pathsIn } from './text-terms.js';

// One path finder for the compressor's extractive summary and the fidelity probes: what one names, the other checks.
describe('pathsIn', () => {
  it.each([
    ['edit src/app.ts:12 and ./lib/util.js.', ['src/app.ts', 'lib/util.js']],
    ['see ~/.config/ctxhost/config.yaml', ['~/.config/ctxhost/config.yaml']],
    ['run ../scripts/build.sh then open README.md', ['../scripts/build.sh', 'README.md']],
    ['{"file_path":"/repo/packages/core/src/index.ts"}', ['/repo/packages/core/src/index.ts']],
    ['version 1.25 and e.g. nothing', []],
    ['(see `packages/a+b/x.tsx`), then Cargo.lock', ['packages/a+b/x.tsx', 'Cargo.lock']],
    ['not files: example.com, v2.0, 3.14, a.b', []],
  ])('finds the paths in %j', (text, paths) => {
    expect(pathsIn(text)).toStrictEqual(paths);
  });

  // A regex the compressor once used took 15.6 s on an 80 KB slash-heavy message: quadratic. Compare 1 MB with 4 MB.
  it.each([
    ['slashes', 'a/'],
    ['dotted segments', 'a.b/'],
    ['dots', 'a.'],
    ['path-like tokens', 'src/a.ts '],
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
