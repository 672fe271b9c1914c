import { isAbsolute, relative } from 'node:path';

/** A path as shown to the person: relative to the working directory when inside it, else as given. */
export function displayPath(path: string, cwd: string = process.cwd()): string {
  const inside = relative(cwd, path);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}
