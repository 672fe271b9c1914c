import { afterAll, describe, expect, it } from 'vitest';
import { CtxhostError } from '@ctxhost/core';
import { POSTGRES_STORE_ERROR_CODES } from './errors.js';
import { runMigrateCommand } from './migrate-command.js';
import { dropSchema, testDatabaseUrl, uniqueSchemaName } from './test-database.test-helper.js';

const schema = uniqueSchemaName('cli');
afterAll(() => dropSchema(schema));

describe('ctxhost-store-postgres migrate', () => {
  it('migrates a new schema, then reports it current (URL from DATABASE_URL)', async () => {
    const environment = { DATABASE_URL: testDatabaseUrl() };
    expect(await runMigrateCommand(['migrate', '--schema', schema], environment)).toBe(
      `schema "${schema}" at version 2 (applied 1, 2)\n`,
    );
    expect(await runMigrateCommand(['migrate', '--schema', schema, '--url', testDatabaseUrl()], {})).toBe(
      `schema "${schema}" at version 2 (already current)\n`,
    );
  });

  it.each([[['drop']], [['migrate', '--bogus']], [[]]])('refuses %j with the usage', async (argv) => {
    const error = await runMigrateCommand(argv, { DATABASE_URL: testDatabaseUrl() }).catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(error, POSTGRES_STORE_ERROR_CODES.optionsInvalid)).toBe(true);
    expect((error as Error).message).toContain('usage: ctxhost-store-postgres migrate');
  });
});
