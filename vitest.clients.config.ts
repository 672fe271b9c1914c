import { defineConfig } from 'vitest/config';

const conditions = ['@ctxhost/source', 'import', 'module', 'node', 'default'];

// The real agents' CLIs through the gateway (pnpm test:clients): slow, and they need scripts/install-test-clients.mjs first.
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@ctxhost/source'] } },
  test: {
    include: ['test/clients/**/*.client-test.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
