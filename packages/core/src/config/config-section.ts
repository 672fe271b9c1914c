import { type z } from 'zod';
import type { CtxhostConfig } from './config-schema.js';
import { configErrorMap, toConfigIssues } from './config-issues.js';
import { ConfigError } from '../errors.js';

/**
 * A hook package's own config section, validated under `hooks.<key>` in the
 * file. The schema describes the file's keys (snake_case) and carries its own
 * defaults; use a strict object and no transforms, so that parsing its output
 * again yields the same value.
 */
export interface ConfigSection<Key extends string = string, Schema extends z.ZodObject = z.ZodObject> {
  readonly key: Key;
  readonly schema: Schema;
}

/** Declares a section; `createConfigSchema([section, …])` composes it into the file schema. */
export function defineConfigSection<Key extends string, Schema extends z.ZodObject>(section: {
  key: Key;
  schema: Schema;
}): ConfigSection<Key, Schema> {
  if (section.key.length === 0 || section.key.includes('.')) {
    throw new TypeError(`config section key must be a non-empty name without dots, got ${JSON.stringify(section.key)}`);
  }
  return Object.freeze({ key: section.key, schema: section.schema });
}

/**
 * A hook's validated section, typed by its schema, defaults applied. Throws a
 * ConfigError naming `hooks.<key>.…` when the stored section does not fit.
 */
export function readHookSection<Schema extends z.ZodObject>(
  config: Pick<CtxhostConfig, 'hooks'>,
  key: string,
  schema: Schema,
): z.output<Schema> {
  const result = schema.safeParse(config.hooks[key] ?? {}, { reportInput: true, error: configErrorMap });
  if (result.success) return result.data;
  throw new ConfigError(toConfigIssues(result.error.issues, { prefix: ['hooks', key] }));
}
