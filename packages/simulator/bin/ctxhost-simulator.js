#!/usr/bin/env node
// The `ctxhost-simulator` command as installed: this file exists before any build, so
// `pnpm install` links it. It runs dist/bin.js once built, else the TypeScript sources through
// tsx. CTXHOST_SIMULATOR_SOURCE=1 forces the sources (for a clone whose dist is stale).
import { launchBin } from '@ctxhost/core/launch-bin';

await launchBin({
  name: 'ctxhost-simulator',
  built: new URL('../dist/bin.js', import.meta.url),
  source: new URL('../src/bin.ts', import.meta.url),
  forceSourceVariable: 'CTXHOST_SIMULATOR_SOURCE',
});
