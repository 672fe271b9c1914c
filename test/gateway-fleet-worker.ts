/**
 * One gateway process of a fleet on a shared PostgreSQL store, for the fleet test and bench:
 *   node --import tsx --conditions=@ctxhost/source test/gateway-fleet-worker.ts
 * Environment: SIM_URL (the upstream), WINDOW (the window every model is managed to), DATABASE_URL and
 * STORE_SCHEMA (the shared store). Prints `listening on <url>`; stops gracefully on SIGTERM.
 */
import { GatewaySectionSchema, settingsFrom, startGateway } from '@ctxhost/gateway';
import { createPostgresStore } from '@ctxhost/store-postgres';
import { createDefaultHost } from 'ctxhost';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`gateway-fleet-worker: ${name} is not set`);
  return value;
};
const window = Number(env('WINDOW'));
const models = Object.fromEntries(
  ['claude-sonnet-4-6', 'claude-opus-4-1'].map((model) => [model, { context_window: window }]),
);
const store = createPostgresStore({ url: env('DATABASE_URL'), schema: env('STORE_SCHEMA'), maxConnections: 4 });
await store.migrate();
const host = createDefaultHost({ config: { store: { kind: 'memory' } }, store });
const gateway = await startGateway({
  settings: settingsFrom(GatewaySectionSchema.parse({ models }), env('SIM_URL')),
  host: () => host,
});
process.stdout.write(`listening on ${gateway.url}\n`);
process.once('SIGTERM', () => {
  void gateway
    .close()
    .then(async () => (await host).dispose())
    .finally(() => process.exit(0));
});
