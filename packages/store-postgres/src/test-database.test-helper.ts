import { randomBytes } from 'node:crypto';
import { createPgClient } from './pg-driver.js';

/** The server the tests use: `DATABASE_URL`, else the machines' local PostgreSQL. */
export function testDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/** A schema name no other test run uses. */
export function uniqueSchemaName(label: string): string {
  return `ctxhost_test_${label}_${randomBytes(6).toString('hex')}`;
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = createPgClient(testDatabaseUrl());
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
