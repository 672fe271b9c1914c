import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the
// "@ctxhost/source" export condition, so unit tests need no build step.
const conditions = ['@ctxhost/source', 'import', 'module', 'node', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@ctxhost/source'] } },
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on 2-core machines, where most test files
    // wait on servers and child processes rather than compute (the whole suite 642 s with one worker, 411 s with two).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'plugins/**/src/**/*.test.ts', 'examples/*/src/**/*.test.ts'],
          // Unit tests share their worker's modules instead of a fresh process and import per file: on a 2-core machine
          // that took three times their own run time (120 files: 3 min isolated, under 1 min shared). They keep no state
          // between files; a unit test that must change process-wide state restores it.
          isolate: false,
        },
      },
      {
        extends: true,
        // Cross-package tests start servers and child processes and change the environment: one process per file.
        test: { name: 'integration', include: ['test/**/*.test.ts'] },
      },
      {
        extends: true,
        // Every bench at its smallest size (bench/benches.test.ts) and the short soak: a process per file.
        test: { name: 'bench', include: ['bench/**/*.test.ts'] },
      },
    ],
  },
});
