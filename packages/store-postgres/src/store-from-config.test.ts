import { afterAll, describe, expect, it } from 'vitest';
import { ConfigFileSchema, CtxhostError, toCtxhostConfig } from '@ctxhost/core';
import { POSTGRES_STORE_ERROR_CODES } from './errors.js';
import { createPostgresStoreFromConfig } from './store-from-config.js';
import { dropSchema, testDatabaseUrl, uniqueSchemaName } from './test-database.test-helper.js';

const schema = uniqueSchemaName('config');
afterAll(() => dropSchema(schema));

describe('createPostgresStoreFromConfig', () => {
  it('opens the database a parsed `store: { kind: postgres, url }` section names', async () => {
    const config = toCtxhostConfig(ConfigFileSchema.parse({ store: { kind: 'postgres', url: testDatabaseUrl() } }));
    const store = createPostgresStoreFromConfig(config.store, { schema });
    try {
      await store.append('s1', { type: 'reverted', toMessageId: 'm0', removedMessageIds: [] });
      expect(await store.list()).toStrictEqual(['s1']);
    } finally {
      await store.close();
    }
  });

  it.each(['file', 'memory'] as const)('refuses kind %s with CTXHOST_POSTGRES_OPTIONS_INVALID', (kind) => {
    const error = (() => {
      try {
        createPostgresStoreFromConfig({ kind });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(CtxhostError.hasCode(error, POSTGRES_STORE_ERROR_CODES.optionsInvalid)).toBe(true);
  });
});
