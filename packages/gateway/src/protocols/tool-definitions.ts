import type { JsonValue, ToolDefinition, ToolSpec } from '@ctxhost/core';

/** The request's tools as ctxhost counts them (core's shared reading gives each protocol's tools as Messages-API specs). */
export function toolDefinitions(specs: readonly ToolSpec[] | undefined): ToolDefinition[] {
  return (specs ?? []).map((spec) => ({
    name: spec.name,
    description: spec.description ?? '',
    inputSchema: isObjectSchema(spec.input_schema) ? spec.input_schema : { type: 'object' },
  }));
}

function isObjectSchema(value: unknown): value is ToolDefinition['inputSchema'] {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'object';
}

/** A JSON value as a plain object, or undefined. */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export type { JsonValue };
