import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigFileSchema } from './config-file-schema.js';
import { CONFIG_JSON_SCHEMA_FILE, createConfigJsonSchema } from './config-json-schema.js';
import { defineConfigSection } from './config-section.js';

function validator(schema: Record<string, unknown>) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile(schema);
}

describe('createConfigJsonSchema', () => {
  const validate = validator(createConfigJsonSchema());

  it('accepts an empty file and the defaults written out in full', () => {
    expect(validate({})).toBe(true);
    expect(validate(ConfigFileSchema.parse({}))).toBe(true);
  });

  it.each([
    [{ compression: { thresold: 0.5 } }, 'additionalProperties'],
    [{ compresion: {} }, 'additionalProperties'],
    [{ compression: { threshold: 'half' } }, 'type'],
    [{ prompt_caching: { cache_ttl: '10m' } }, 'enum'],
    [{ disabled_hooks: [3] }, 'type'],
  ])('rejects %j', (input, keyword) => {
    expect(validate(input)).toBe(false);
    expect(validate.errors?.map((error) => error.keyword)).toContain(keyword);
  });

  it('includes contributed hook sections, strictly', () => {
    const section = defineConfigSection({
      key: 'context-window-monitor',
      schema: z.strictObject({ warn_at: z.number().default(0.7) }),
    });
    const validateWithSection = validator(createConfigJsonSchema([section]));
    expect(validateWithSection({ hooks: { 'context-window-monitor': { warn_at: 0.6 } } })).toBe(true);
    expect(validateWithSection({ hooks: { 'context-window-monitor': { warn: 0.6 } } })).toBe(false);
  });

  it('matches the config.schema.json the build wrote', async () => {
    const written: unknown = JSON.parse(
      await readFile(new URL(`../../${CONFIG_JSON_SCHEMA_FILE}`, import.meta.url), 'utf8'),
    );
    expect(written).toStrictEqual(createConfigJsonSchema());
  });
});
