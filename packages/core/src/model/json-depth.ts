/**
 * How deep a JSON value inside a message (a tool input, a provider extra) may
 * nest. Validation, token estimates and serialization recurse once per level,
 * so a value nested thousands of levels deep (a hostile transcript or tool
 * call) would end in a stack overflow far from where it came in. Real tool
 * inputs nest a few levels; 256 leaves room for any of them.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * The path (`parts.0.input.a.0…`, shortened) where `value` nests deeper than
 * `limit` levels, or undefined when it does not. Iterative, so it never
 * overflows the stack itself; cycles are not followed.
 */
export function findTooDeep(value: unknown, limit = MAX_JSON_DEPTH): string | undefined {
  const seen = new Set<object>();
  const stack: { value: unknown; depth: number; path: readonly string[] }[] = [{ value, depth: 0, path: [] }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (typeof entry.value !== 'object' || entry.value === null || seen.has(entry.value)) continue;
    if (entry.depth >= limit) return describePath(entry.path);
    seen.add(entry.value);
    for (const key of Object.keys(entry.value)) {
      stack.push({
        value: (entry.value as Record<string, unknown>)[key],
        depth: entry.depth + 1,
        path: entry.path.length < 8 ? [...entry.path, key] : entry.path,
      });
    }
  }
  return undefined;
}

function describePath(path: readonly string[]): string {
  return path.length < 8 ? path.join('.') : `${path.join('.')}…`;
}

/** The message for a value that nests too deeply, naming where. */
export function tooDeepMessage(where: string, path: string, limit = MAX_JSON_DEPTH): string {
  return `${where} nests more than ${limit} levels deep at ${path || '(root)'}; ctxhost refuses values this deep (a tool input or extra field this deep is almost certainly corrupt): flatten it or leave it out`;
}
