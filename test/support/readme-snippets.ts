import { readFileSync } from 'node:fs';

/** One ```ts block of a README, with the line it starts on. */
export interface ReadmeSnippet {
  file: string;
  line: number;
  code: string;
}

/**
 * The ```ts blocks of a README, in order; with `section`, only those under the
 * `## <section>` heading (up to the next `## `).
 */
export function readmeSnippets(file: string, section?: string): ReadmeSnippet[] {
  const text = readFileSync(file, 'utf8');
  const start = section === undefined ? 0 : text.indexOf(`\n## ${section}\n`);
  if (start < 0) return [];
  const end = section === undefined ? text.length : text.indexOf('\n## ', start + 1);
  const part = text.slice(0, end < 0 ? text.length : end);
  return [...part.matchAll(/```ts\n([\s\S]*?)```/g)]
    .filter((match) => (match.index ?? 0) >= start)
    .map((match) => ({
      file,
      line: text.slice(0, match.index).split('\n').length,
      code: match[1] ?? '',
    }));
}
