/** Runs of the characters a path is made of: maximal, so the regex never backtracks into one. */
const PATH_RUN = /[\w.@~/-]+/g;
const BARE_FILE = /^[\w-]+\.(?:ts|tsx|js|jsx|mjs|py|json|md|c|h|cpp|go|rs|java|rb|yaml|yml|toml|txt|sh|sql|html|css)$/;
const EXTENSION = /^[A-Za-z0-9]{1,8}$/;
const NAME = /^[\w.@-]+$/;
/** Longer than this is not a path worth listing (and bounds the work per run). */
const MAX_PATH = 1024;

/**
 * File paths mentioned in a text (`src/app.ts`, `~/.config/x.yaml`, `../a/b.py`,
 * a bare `index.ts`), in order. Each run of path characters is found once and
 * judged by its last segment, so the work is linear in the text: the regex this
 * replaced, `(?:\/?[\w.@-]+\/)+[\w.@-]+\.[A-Za-z0-9]{1,8}`, re-scanned a run of
 * slashes from every position in it (an 80 KB message took 15 s).
 */
export function pathsIn(text: string): string[] {
  const found: string[] = [];
  PATH_RUN.lastIndex = 0;
  for (let match = PATH_RUN.exec(text); match !== null; match = PATH_RUN.exec(text)) {
    const path = withoutTrailingDots(match[0]);
    if (path.length < 3 || path.length > MAX_PATH) continue;
    const slash = path.lastIndexOf('/');
    const name = path.slice(slash + 1);
    const directory = path.slice(0, Math.max(0, slash));
    const isPath =
      /\w/.test(directory) && NAME.test(name) && name.lastIndexOf('.') > 0 && EXTENSION.test(extensionOf(name));
    if (isPath) found.push(path);
    else if (BARE_FILE.test(name)) found.push(name);
  }
  return found.filter((path) => !/^\d+\.\d+$/.test(path) && !path.startsWith('e.g'));
}

function extensionOf(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

function withoutTrailingDots(run: string): string {
  let end = run.length;
  while (end > 0 && run[end - 1] === '.') end--;
  return run.slice(0, end);
}
