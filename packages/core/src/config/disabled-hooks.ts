import { BUILT_IN_HOOK_NAMES, type BuiltInHookName } from './config-schema.js';
import type { ConfigLocator } from './config-issues.js';

/**
 * Old hook names kept as aliases: each still works and warns once per load,
 * naming the new one. `anthropic-context-window-limit-recovery` is
 * oh-my-opencode's name for the recovery cascade; `server-context` is the
 * Anthropic-only plugin `native-compaction` replaced.
 */
export const HOOK_ALIASES: Readonly<Record<string, BuiltInHookName>> = Object.freeze({
  'anthropic-context-window-limit-recovery': 'anthropic-auto-compact',
  'server-context': 'native-compaction',
});

/** A config problem that does not fail the file: said, with where, and the config still loads. */
export interface ConfigWarning {
  file: string | undefined;
  line: number | undefined;
  column: number | undefined;
  /** Key path as written (`disabled_hooks[2]`). */
  path: string;
  message: string;
}

/** `config .ctxhost/config.yaml:4:5 disabled_hooks[1]: <message>` */
export function formatConfigWarning(warning: ConfigWarning): string {
  const position =
    warning.line === undefined ? '' : `:${warning.line}${warning.column === undefined ? '' : `:${warning.column}`}`;
  const where = warning.file === undefined ? 'config' : `config ${warning.file}${position}`;
  return `${where}${warning.path === '' ? '' : ` ${warning.path}`}: ${warning.message}`;
}

/** One file's `disabled_hooks`, with what is needed to say where an entry is. */
export interface DisabledHooksList {
  names: readonly unknown[];
  file: string;
  locate: ConfigLocator;
}

/**
 * The files' `disabled_hooks` joined (a project's list adds to the user's, as
 * oh-my-opencode does), aliases resolved to today's names (one warning per alias),
 * unknown names dropped with a warning that suggests the closest known name.
 */
export function resolveDisabledHooks(lists: readonly DisabledHooksList[]): {
  names: BuiltInHookName[];
  warnings: ConfigWarning[];
} {
  const names = new Set<BuiltInHookName>();
  const warnings: ConfigWarning[] = [];
  const warnedAliases = new Set<string>();
  for (const list of lists) {
    list.names.forEach((name, index) => {
      if (typeof name !== 'string') return;
      const path = `disabled_hooks[${index}]`;
      const at = () => ({
        file: list.file,
        ...(list.locate(['disabled_hooks', index], 'value') ?? { line: undefined, column: undefined }),
        path,
      });
      const canonical = canonicalHookName(name);
      if (canonical !== undefined) {
        names.add(canonical);
        if (canonical !== name && !warnedAliases.has(name)) {
          warnedAliases.add(name);
          warnings.push({
            ...at(),
            message: `"${name}" is the old name of "${canonical}"; it still works, but write "${canonical}"`,
          });
        }
        return;
      }
      const suggestion = closestHookName(name);
      warnings.push({
        ...at(),
        message: `unknown hook "${name}", ignored${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`} (built-in hooks: ${BUILT_IN_HOOK_NAMES.join(', ')})`,
      });
    });
  }
  return { names: [...names], warnings };
}

/** A built-in hook's name for a name or an alias; undefined for anything else. */
export function canonicalHookName(name: string): BuiltInHookName | undefined {
  if ((BUILT_IN_HOOK_NAMES as readonly string[]).includes(name)) return name as BuiltInHookName;
  return Object.hasOwn(HOOK_ALIASES, name) ? HOOK_ALIASES[name] : undefined;
}

/** The built-in name (or alias) nearest to a misspelling, when it is near enough to be a likely typo. */
export function closestHookName(name: string): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of [...BUILT_IN_HOOK_NAMES, ...Object.keys(HOOK_ALIASES)]) {
    const distance = editDistance(name.toLowerCase(), candidate);
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined) return undefined;
  const near =
    best.distance <= Math.max(3, Math.floor(best.candidate.length / 3)) ||
    best.candidate.includes(name.toLowerCase()) ||
    name.toLowerCase().includes(best.candidate);
  return near ? canonicalHookName(best.candidate) : undefined;
}

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (left[i - 1] === right[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[right.length]!;
}
