#!/usr/bin/env node
// The `ctxhost` command as installed: this file exists before any build, so `pnpm install`
// links it. It runs the built command line (dist/bin.js); in a fresh clone, before
// `pnpm build`, the TypeScript sources through tsx. CTXHOST_CLI_SOURCE=1 forces the sources
// (for a clone whose dist is stale).
import { launchBin } from '@ctxhost/core/launch-bin';

await launchBin({
  name: 'ctxhost',
  built: new URL('../dist/bin.js', import.meta.url),
  source: new URL('../src/bin.ts', import.meta.url),
  forceSourceVariable: 'CTXHOST_CLI_SOURCE',
});
