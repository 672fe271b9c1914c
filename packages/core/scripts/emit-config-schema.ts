/**
 * Build step: writes config.schema.json (the JSON Schema of the config file)
 * next to package.json, from the freshly built dist/. Point an editor's YAML
 * language server at it: `# yaml-language-server: $schema=<path>/config.schema.json`.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CONFIG_JSON_SCHEMA_FILE, createConfigJsonSchema } from '../dist/config/config-json-schema.js';

const target = fileURLToPath(new URL(`../${CONFIG_JSON_SCHEMA_FILE}`, import.meta.url));
await writeFile(target, `${JSON.stringify(createConfigJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target}`);
