/*
 * Linear scans of text for the terms probes are made of and checked against:
 * paths, identifiers and content words. No pattern here backtracks: text is
 * split on separators once, and each token is tested with anchored character
 * classes, so the cost is linear in the text on any input.
 */

const SEPARATORS = /[\s"'`()[\]{}<>,;|=*!?]+/;
const PATH_CHARS = /^[\w.@~/+-]+$/;
const EXTENSION = /^[A-Za-z0-9]{1,8}$/;
const DIGITS = /^\d+$/;
const BARE_FILE_EXTENSIONS = new Set(
  'ts tsx js jsx mjs cjs py json md c h cpp go rs java rb yaml yml toml txt sh sql html css lock cfg ini env'.split(
    ' ',
  ),
);
const MAX_TOKEN = 300;

/** A whitespace- or punctuation-separated token as a file path, or undefined. `./` and a trailing `:line` are dropped. */
export function asPath(raw: string): string | undefined {
  let token = raw;
  const colon = token.indexOf(':');
  if (colon >= 0) token = token.slice(0, colon);
  while (token.endsWith('.')) token = token.slice(0, -1);
  if (token.startsWith('./')) token = token.slice(2);
  if (token.length < 3 || token.length > MAX_TOKEN || token.startsWith('//') || !PATH_CHARS.test(token))
    return undefined;
  const slash = token.lastIndexOf('/');
  const base = token.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = base.slice(dot + 1);
  if (!EXTENSION.test(extension) || DIGITS.test(base.slice(0, dot))) return undefined;
  if (slash < 0 && !BARE_FILE_EXTENSIONS.has(extension.toLowerCase())) return undefined;
  return token;
}

/** File paths named in a text, in order (duplicates kept). Linear in the text. */
export function pathsIn(text: string): string[] {
  const paths: string[] = [];
  for (const token of text.split(SEPARATORS)) {
    if (!token.includes('.')) continue;
    const path = asPath(token);
    if (path !== undefined) paths.push(path);
  }
  return paths;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]{2,59}$/;
const QUALIFIED = /^[A-Za-z_$][\w$.:#-]{2,79}$/;
const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;
const SNAKE = /^[a-z][a-z0-9]*_[a-z0-9_]+$/;
const SCREAMING = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/;
const PASCAL_COMPOUND = /^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/;

/** Code identifiers a person named: `backticked` names, and camelCase, snake_case and CONSTANT_CASE words. */
export function identifiersIn(text: string): string[] {
  const found: string[] = [];
  let at = text.indexOf('`');
  while (at >= 0) {
    const end = text.indexOf('`', at + 1);
    if (end < 0) break;
    const quoted = text.slice(at + 1, end).replace(/\(\)$/, '');
    if (end - at <= 81 && QUALIFIED.test(quoted) && asPath(quoted) === undefined) found.push(quoted);
    at = text.indexOf('`', end + 1);
  }
  for (const token of text.split(SEPARATORS)) {
    const word = token.replace(/[.:]+$/, '').replace(/\(\)$/, '');
    if (!IDENTIFIER.test(word) || word.length < 4) continue;
    if (CAMEL.test(word) || SNAKE.test(word) || SCREAMING.test(word) || PASCAL_COMPOUND.test(word)) found.push(word);
  }
  return found;
}

const STOPWORDS = new Set(
  (
    'about above after again also always because been before being below between both could does doing done down during each ' +
    'from further have having here into just more most must need needs never only other over same should some such than that ' +
    'their them then there these they this those through under until very want were what when where which while will with ' +
    'would your please make sure thing things like using used instead without dont don\u2019t cannot can\u2019t okay yeah sorry thanks'
  ).split(' '),
);

/** A word reduced to a crude stem, so `tests`, `testing` and `tested` meet. */
export function stem(word: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's', 'e'])
    if (word.length - suffix.length >= 4 && word.endsWith(suffix) && !word.endsWith('ss'))
      return word.slice(0, -suffix.length);
  return word;
}

/** Lower-case word tokens of a text (letters, digits, underscore). */
export function wordsIn(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9_]+/);
}

/** The distinctive words of a sentence, stemmed, at most `max`, in order: what a paraphrase still has to name. */
export function contentWords(text: string, max = 8): string[] {
  const words: string[] = [];
  for (const word of wordsIn(text)) {
    if (word.length < 4 || STOPWORDS.has(word) || DIGITS.test(word)) continue;
    const stemmed = stem(word);
    if (!words.includes(stemmed)) words.push(stemmed);
    if (words.length >= max) break;
  }
  return words;
}

/** The terms of what the model sees, indexed once so each probe is checked in time proportional to its own size. */
export interface TermIndex {
  hasPath(path: string): boolean;
  hasIdentifier(name: string): boolean;
  hasWord(stemmedWord: string): boolean;
}

export function createTermIndex(texts: Iterable<string>): TermIndex {
  const paths = new Set<string>();
  const identifiers = new Set<string>();
  const words = new Set<string>();
  for (const text of texts) {
    for (const token of text.split(SEPARATORS)) {
      if (token.length === 0 || token.length > MAX_TOKEN) continue;
      if (token.includes('.') || token.includes('/')) {
        const path = token.includes('.') ? asPath(token) : undefined;
        if (path !== undefined) for (const suffix of pathSuffixes(path, 1)) paths.add(suffix);
      }
      for (const name of token.split(/[^\w$]+/)) if (name.length > 0) identifiers.add(name);
    }
    for (const word of wordsIn(text)) if (word.length > 0) words.add(stem(word));
  }
  return {
    // A shorter form of the path in the text (src/a.ts for /home/me/p/src/a.ts) counts; a bare file name does not.
    hasPath: (path) => pathSuffixes(path, 2).some((suffix) => paths.has(suffix)),
    hasIdentifier: (name) => name.split(/[^\w$]+/).every((piece) => piece.length === 0 || identifiers.has(piece)),
    hasWord: (word) => words.has(word),
  };
}

/** A path and its shorter forms keeping at least `minSegments` segments, the full path first. */
function pathSuffixes(path: string, minSegments: number): string[] {
  const trimmed = path.startsWith('/') ? path.slice(1) : path;
  const segments = trimmed.split('/').filter((segment) => segment.length > 0);
  const suffixes = [path, trimmed];
  for (let start = 1; start <= segments.length - minSegments; start++) suffixes.push(segments.slice(start).join('/'));
  if (segments.length < minSegments) return [path, trimmed];
  return suffixes;
}
