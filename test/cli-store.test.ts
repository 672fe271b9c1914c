import { describe, expect, it } from 'vitest';
import { createProgram } from '../packages/cli/src/program.js';
import { createPostgresStore } from '@ctxhost/store-postgres';

const url = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('ctxhost store migrate', () => {
  it('creates the PostgreSQL store schema, and says so again without change', async () => {
    const schema = `ctxhost_cli_${Math.random().toString(36).slice(2, 10)}`;
    const output: string[] = [];
    const run = (...args: string[]) =>
      createProgram((text) => output.push(text)).parseAsync([
        'node',
        'ctxhost',
        'store',
        'migrate',
        '--url',
        url,
        '--schema',
        schema,
        ...args,
      ]);
    try {
      await run();
      await run();
      expect(output[0]).toMatch(new RegExp(`schema "${schema}" at version \\d+ \\(applied`));
      expect(output[1]).toMatch(/already current/);
    } finally {
      const store = createPostgresStore({ url, schema });
      await store.pool.query(`drop schema if exists "${schema}" cascade`);
      await store.close();
    }
  });
});
