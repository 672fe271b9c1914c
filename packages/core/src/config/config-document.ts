import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import type { ConfigLocator } from './config-issues.js';
import type { ConfigIssue } from '../errors.js';

/** Aliases a config may expand (the yaml library's own default); far more than any real config uses. */
const MAX_ALIAS_COUNT = 100;

/** A config file read and parsed, with a locator from key paths to lines and columns. */
export interface ConfigDocument {
  /** The absolute path. */
  path: string;
  /** The path as shown in messages. */
  displayPath: string;
  /** The file's content as plain data (an empty file is `{}`). */
  value: unknown;
  locate: ConfigLocator;
}

export type ReadConfigResult =
  | { status: 'absent' }
  | { status: 'unreadable'; issue: ConfigIssue; cause: unknown }
  | { status: 'invalid'; issues: ConfigIssue[] }
  | { status: 'ok'; document: ConfigDocument };

export interface ReadConfigOptions {
  /**
   * The project folder, for a project's own file: a file inside it that is a symbolic link (or inside a
   * linked folder) resolving out of it is refused unread, so a cloned repository cannot make an error
   * message quote the environment or a key file by linking its config there.
   */
  confineTo?: string;
}

/** Reads a YAML or JSON config file (JSON is read by the YAML parser, so both get positions). */
export async function readConfigDocument(
  path: string,
  displayPath: string,
  options: ReadConfigOptions = {},
): Promise<ReadConfigResult> {
  let text: string;
  try {
    if (options.confineTo !== undefined) {
      const escape = await linkOutOf(path, options.confineTo);
      if (escape !== undefined) {
        const issue = {
          file: displayPath,
          line: undefined,
          column: undefined,
          path: '',
          expected:
            "a file inside the project (a link out of the project is not followed; the target's content is not read)",
          found: `a symbolic link to ${escape}`,
        };
        return { status: 'unreadable', issue, cause: new Error(`${path} links out of ${options.confineTo}`) };
      }
    }
    // A FIFO or a device would block the read forever (or never end); a folder fails the read below (EISDIR).
    const info = await stat(path);
    if (!info.isFile() && !info.isDirectory()) {
      const issue = {
        file: displayPath,
        line: undefined,
        column: undefined,
        path: '',
        expected: 'a readable file (a regular file, not a pipe, a device or a folder)',
        found: info.isFIFO() ? 'a named pipe (FIFO)' : 'a special file',
      };
      return { status: 'unreadable', issue, cause: new Error(`${path} is not a regular file`) };
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'absent' };
    const reason = error instanceof Error ? error.message : String(error);
    const issue = {
      file: displayPath,
      line: undefined,
      column: undefined,
      path: '',
      expected: 'a readable file (check its permissions and that it is a file)',
      found: `an error: ${reason}`,
    };
    return { status: 'unreadable', issue, cause: error };
  }
  const lineCounter = new LineCounter();
  // The yaml library checks duplicate keys pair against pair (quadratic: 40,000 keys took 27 s); duplicateKeys() does it with a set.
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  if (document.errors.length === 0) {
    const duplicate = duplicateKey(document.contents);
    if (duplicate !== undefined) {
      const position = lineCounter.linePos(duplicate.offset);
      return {
        status: 'invalid',
        issues: [
          {
            file: displayPath,
            line: position.line,
            column: position.col,
            path: '',
            expected: 'valid YAML or JSON',
            found: `a syntax error (Map keys must be unique; "${duplicate.key}" appears twice)`,
          },
        ],
      };
    }
  }
  if (document.errors.length > 0) {
    return {
      status: 'invalid',
      issues: document.errors.map((error) => {
        const position = lineCounter.linePos(problemOffset(text, error.pos[0], error.code));
        const firstLine = error.message.split('\n')[0] ?? error.message;
        const reason = /call stack/i.test(firstLine) ? 'nested too deeply to read' : firstLine;
        return {
          file: displayPath,
          line: position.line,
          column: position.col,
          path: '',
          expected: 'valid YAML or JSON',
          found: `a syntax error (${reason})`,
        };
      }),
    };
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (error) {
    // toJS throws on aliases that expand without bound (a "billion laughs" file) and on values nested past the stack.
    const reason = error instanceof Error ? error.message : String(error);
    return {
      status: 'invalid',
      issues: [
        {
          file: displayPath,
          line: undefined,
          column: undefined,
          path: '',
          expected: 'plain YAML or JSON data',
          found: `content that cannot be read safely (${reason})`,
        },
      ],
    };
  }
  const locate: ConfigLocator = (keyPath, target) => {
    const offset = findOffset(document.contents, keyPath, target);
    if (offset === undefined) return undefined;
    const position = lineCounter.linePos(offset);
    return { line: position.line, column: position.col };
  };
  return { status: 'ok', document: { path, displayPath, value, locate } };
}

/** Where `path` really is when it lies inside `folder` as written but resolves (through links) out of it. */
async function linkOutOf(path: string, folder: string): Promise<string | undefined> {
  if (!isInside(resolve(path), resolve(folder))) return undefined;
  const [target, root] = await Promise.all([realpath(path), realpath(folder)]);
  return isInside(target, root) ? undefined : target;
}

function isInside(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

/** Each map's pairs by key, built once per map when first needed (a linear search per issue was quadratic). */
const pairIndexes = new WeakMap<YAMLMap, Map<string, Pair>>();
function pairOf(map: YAMLMap, key: string): Pair | undefined {
  let index = pairIndexes.get(map);
  if (index === undefined) {
    index = new Map();
    for (const item of map.items)
      if (isScalar(item.key) && !index.has(String(item.key.value))) index.set(String(item.key.value), item);
    pairIndexes.set(map, index);
  }
  return index.get(key);
}

/** The first key that appears twice in one mapping, anywhere in the document (walked without recursion). */
function duplicateKey(root: unknown): { key: string; offset: number } | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const item of node.items) {
        if (isScalar(item.key)) {
          const key = String(item.key.value);
          if (seen.has(key)) return { key, offset: item.key.range?.[0] ?? 0 };
          seen.add(key);
        }
        stack.push(item.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    }
  }
  return undefined;
}

/** The offset of the deepest node on `keyPath`: the key itself for a `key` target, else its value. */
function findOffset(root: unknown, keyPath: readonly PropertyKey[], target: 'key' | 'value'): number | undefined {
  let node = root as Node | null;
  let offset = node?.range?.[0];
  for (const [index, segment] of keyPath.entries()) {
    const last = index === keyPath.length - 1;
    if (isMap(node)) {
      const pair = pairOf(node, String(segment));
      if (pair === undefined) return offset;
      const keyOffset = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      const value = pair.value as Node | null;
      if (last && target === 'key') return keyOffset ?? offset;
      offset = value?.range?.[0] ?? keyOffset ?? offset;
      node = value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as Node | undefined;
      if (item === undefined) return offset;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else {
      return offset;
    }
  }
  return offset;
}

/**
 * Where to point a yaml syntax error. A key indented under a scalar (`threshold: 0.5`
 * then `   bad: 1`) is reported at the scalar on the line above, as a multi-line
 * implicit key: point at the first character of the next line, the line at fault.
 * An error placed at a line's end moves to the next line's first character too.
 */
function problemOffset(text: string, offset: number, code: string): number {
  let at = offset;
  if (code === 'BLOCK_AS_IMPLICIT_KEY' || code === 'MULTILINE_IMPLICIT_KEY') {
    const lineEnd = text.indexOf('\n', offset);
    if (lineEnd === -1) return offset;
    at = lineEnd;
  }
  while (at < text.length && /[ \t]/.test(text[at]!)) at++;
  if (text[at] !== '\n' && text[at] !== '\r') return offset;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at < text.length ? at : offset;
}
