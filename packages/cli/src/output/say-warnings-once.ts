/**
 * Runs `task` with `console.warn` saying each distinct warning once; repeats are
 * counted and summed up at the end. The Anthropic SDK warns on every request
 * for a deprecated model (`The model 'claude-sonnet-4-5' is deprecated …`), by
 * `console.warn` and with no switch of its own: a replay of 283 calls printed
 * it 283 times.
 */
export async function sayWarningsOnce<T>(
  task: () => Promise<T>,
  write: (text: string) => void = (text) => void process.stderr.write(text),
): Promise<T> {
  const original = console.warn;
  const repeats = new Map<string, number>();
  console.warn = (...args: unknown[]) => {
    const text = args.map((arg) => (typeof arg === 'string' ? arg : String(arg))).join(' ');
    const seen = repeats.get(text);
    repeats.set(text, (seen ?? 0) + (seen === undefined ? 0 : 1));
    if (seen === undefined) original.apply(console, args);
  };
  try {
    return await task();
  } finally {
    console.warn = original;
    for (const [text, count] of repeats)
      if (count > 0)
        write(`ctxhost: the warning "${firstLine(text)}" came ${count} more time${count === 1 ? '' : 's'}\n`);
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
