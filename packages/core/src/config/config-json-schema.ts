import { z } from 'zod';
import { createConfigSchema } from './config-file-schema.js';
import type { ConfigSection } from './config-section.js';

/** Where editors find the schema once `@ctxhost/core` is installed. */
export const CONFIG_JSON_SCHEMA_FILE = 'config.schema.json';

/**
 * The JSON Schema (draft 2020-12) of the config file, generated from the zod
 * schema so editors check `.ctxhost/config.yaml` with the same rules as the
 * loader. Input side: keys with defaults are optional.
 */
export function createConfigJsonSchema(sections: readonly ConfigSection[] = []): Record<string, unknown> {
  const schema = z.toJSONSchema(createConfigSchema(sections), { io: 'input', target: 'draft-2020-12' });
  return { ...schema, title: 'ctxhost configuration (.ctxhost/config.yaml)' };
}
