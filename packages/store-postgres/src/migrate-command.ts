import { parseArgs } from 'node:util';
import { POSTGRES_STORE_ERROR_CODES, PostgresStoreError } from './errors.js';
import { createPostgresStore } from './postgres-store.js';

export const MIGRATE_USAGE =
  'usage: ctxhost-store-postgres migrate [--url postgres://user@host:5432/db] [--schema ctxhost]   (url default: DATABASE_URL)';

/**
 * `ctxhost-store-postgres migrate`: applies the store's missing migrations
 * and returns the line to print. (The `ctxhost` CLI can mount it as
 * `ctxhost store migrate` by calling this function.)
 */
export async function runMigrateCommand(
  argv: readonly string[],
  environment: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const { positionals, values } = parseCommandLine(argv);
  if (positionals[0] !== 'migrate' || positionals.length > 1) {
    throw new PostgresStoreError(
      POSTGRES_STORE_ERROR_CODES.optionsInvalid,
      `unknown command "${positionals.join(' ')}"; ${MIGRATE_USAGE}`,
    );
  }
  const url = values.url ?? environment.DATABASE_URL;
  const store = createPostgresStore({
    ...(url === undefined ? {} : { url }),
    ...(values.schema === undefined ? {} : { schema: values.schema }),
  });
  try {
    const result = await store.migrate();
    const applied = result.applied.length === 0 ? 'already current' : `applied ${result.applied.join(', ')}`;
    return `schema "${store.schema}" at version ${result.version} (${applied})\n`;
  } finally {
    await store.close();
  }
}

function parseCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { url: { type: 'string' }, schema: { type: 'string' } },
    });
  } catch (error) {
    throw new PostgresStoreError(
      POSTGRES_STORE_ERROR_CODES.optionsInvalid,
      `${(error as Error).message}; ${MIGRATE_USAGE}`,
      { cause: error },
    );
  }
}
