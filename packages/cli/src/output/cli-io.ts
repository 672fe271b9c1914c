import pc from 'picocolors';

/** picocolors' colour functions; each is the identity when colour is off. */
export type Colors = ReturnType<typeof pc.createColors>;

/** One output stream of the command line: where text goes, and whether it is a terminal. */
export interface CliStream {
  write(text: string): void;
  /** True on a terminal: colour and progress bars are shown only then. */
  readonly isTTY: boolean;
  /** The underlying stream, for a progress bar (only read when `isTTY`). */
  readonly stream?: NodeJS.WritableStream;
  /** Colour functions for this stream (no-ops when it is not a terminal or NO_COLOR is set). */
  readonly colors: Colors;
}

/** Where a command writes: results to `out`, progress, notes and errors to `err`. */
export interface CliIo {
  out: CliStream;
  err: CliStream;
}

/** Colour is on for a terminal, unless NO_COLOR is set (https://no-color.org); FORCE_COLOR=1 turns it on anywhere, FORCE_COLOR=0 off. */
export function colorEnabled(isTTY: boolean, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return isTTY;
}

/** A CliStream over a process stream (`process.stdout`, `process.stderr`). */
export function processStream(stream: NodeJS.WriteStream): CliStream {
  const isTTY = stream.isTTY === true;
  return { write: (text) => void stream.write(text), isTTY, stream, colors: pc.createColors(colorEnabled(isTTY)) };
}

/** A CliStream that collects or forwards text: never a terminal, never coloured. */
export function textStream(write: (text: string) => void): CliStream {
  return { write, isTTY: false, colors: pc.createColors(false) };
}

/** The process's own stdout and stderr. */
export function processIo(): CliIo {
  return { out: processStream(process.stdout), err: processStream(process.stderr) };
}
