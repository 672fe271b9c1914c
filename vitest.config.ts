import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the
// "@ctxhost/source" export condition, so unit tests need no build step.
const conditions = ['@ctxhost/source', 'import', 'module', 'node', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@ctxhost/source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'plugins/**/src/**/*.test.ts',
      'examples/*/src/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
