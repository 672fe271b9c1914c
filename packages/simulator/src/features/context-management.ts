import { invalid, type ApiError } from '../wire/api-error.js';
import type { SimulatorFeature } from './features.js';
import type { ContextEdit, MessagesRequest } from '../wire/wire.js';

/** A `{ type, value }` amount such as `trigger: { type: 'input_tokens', value: 30000 }`. */
export interface Amount {
  type: string;
  value: number;
}

/**
 * Checks the request's `context_management` field against the active
 * features. Without a feature whose beta is on, the field is unknown to the
 * API and rejected as any extra field is (`context_management: Extra inputs are
 * not permitted`); an edit type no active feature handles names the accepted tags.
 */
export function validateContextManagement(
  request: MessagesRequest,
  features: readonly SimulatorFeature[],
): ApiError | undefined {
  if (!('context_management' in request) || request['context_management'] === undefined) return undefined;
  const accepted = features.flatMap((feature) => feature.editTypes ?? []);
  if (accepted.length === 0) return invalid('context_management: Extra inputs are not permitted', false);
  const field = request['context_management'];
  if (typeof field !== 'object' || field === null || Array.isArray(field))
    return invalid('context_management: Input should be a valid dictionary or object', false);
  const edits = (field as Record<string, unknown>)['edits'];
  if (edits === undefined) return undefined;
  if (!Array.isArray(edits)) return invalid('context_management.edits: Input should be a valid list', false);
  for (let index = 0; index < edits.length; index++) {
    const problem = validateEdit(edits[index], `context_management.edits.${index}`, features, accepted);
    if (problem) return problem;
  }
  return undefined;
}

function validateEdit(
  edit: unknown,
  where: string,
  features: readonly SimulatorFeature[],
  accepted: readonly string[],
): ApiError | undefined {
  if (typeof edit !== 'object' || edit === null || Array.isArray(edit))
    return invalid(`${where}: Input should be a valid dictionary or object`, false);
  const type = (edit as ContextEdit).type;
  const owner = features.find((feature) => feature.editTypes?.includes(String(type)));
  if (owner === undefined) {
    return invalid(
      `${where}.type: Input tag '${String(type)}' found using 'type' does not match any of the expected tags: ${accepted.map((tag) => `'${tag}'`).join(', ')}`,
      false,
    );
  }
  return owner.validateEdit?.(edit as ContextEdit, where);
}

/** The request's edits of the given type, in order (none when the field is absent). */
export function editsOf(request: MessagesRequest, type: string): ContextEdit[] {
  const field = request['context_management'] as { edits?: ContextEdit[] } | undefined;
  return (field?.edits ?? []).filter((edit) => edit.type === type);
}

/**
 * Checks an optional `{ type, value }` option: `type` one of `types`, `value`
 * a whole number of at least `minimum`. Texts follow the API's pydantic style.
 */
export function checkAmount(
  edit: ContextEdit,
  key: string,
  types: readonly string[],
  minimum: number,
  where: string,
): ApiError | undefined {
  const amount = edit[key];
  if (amount === undefined) return undefined;
  if (typeof amount !== 'object' || amount === null)
    return invalid(`${where}.${key}: Input should be a valid dictionary or object`, false);
  const { type, value } = amount as Partial<Amount>;
  if (!types.includes(String(type)))
    return invalid(`${where}.${key}.type: Input should be ${types.map((tag) => `'${tag}'`).join(' or ')}`, false);
  if (typeof value !== 'number' || !Number.isInteger(value))
    return invalid(`${where}.${key}.value: Input should be a valid integer`, false);
  return value < minimum
    ? invalid(`${where}.${key}.value: Input should be greater than or equal to ${minimum}`, false)
    : undefined;
}

/** The `{ type, value }` option, or the default when absent. */
export function amountOf(edit: ContextEdit, key: string, fallback: Amount): Amount {
  const amount = edit[key] as Amount | undefined;
  return amount ?? fallback;
}
