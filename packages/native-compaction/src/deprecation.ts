const warned = new Set<string>();

/**
 * Says once per process that `oldName` is deprecated and what replaces it, as
 * a Node `DeprecationWarning` (code `CTXHOST_DEPRECATED`), so `--no-deprecation`
 * silences it and `--throw-deprecation` finds the caller.
 */
export function warnDeprecatedOnce(oldName: string, replacement: string): void {
  if (warned.has(oldName)) return;
  warned.add(oldName);
  process.emitWarning(`${oldName} is deprecated: use ${replacement}`, {
    type: 'DeprecationWarning',
    code: 'CTXHOST_DEPRECATED',
  });
}
