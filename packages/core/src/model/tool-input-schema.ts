import type { ToolDefinition } from './model-client.js';

/**
 * A tool's JSON Schema as a provider request needs it. ctxhost's `ToolDefinition`
 * spells it `inputSchema`; a definition written the Anthropic API's way
 * (`input_schema`, from plain JavaScript or a cast) is read too, so the schema
 * reaches the API instead of being dropped on the way. Undefined when neither is
 * there: the request then goes out without one and the API names the tool.
 */
export function toolInputSchema(tool: ToolDefinition): ToolDefinition['inputSchema'] | undefined {
  const loose = tool as Partial<ToolDefinition> & { input_schema?: ToolDefinition['inputSchema'] };
  return loose.inputSchema ?? loose.input_schema;
}
