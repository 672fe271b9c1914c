/** How deep a request body may nest (objects and arrays); the real API refuses far shallower bodies than would overflow a stack. */
export const MAX_BODY_DEPTH = 1_000;

/** Whether `value` nests objects or arrays more than `limit` levels deep, checked without recursion. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
