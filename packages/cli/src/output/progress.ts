import cliProgress from 'cli-progress';
import type { CliStream } from './cli-io.js';

/** A progress bar for work that takes more than a moment. A no-op unless the stream is a terminal. */
export interface Progress {
  /** Sets the number of steps done (and optionally a new total). */
  update(done: number, total?: number): void;
  increment(steps?: number): void;
  /** Removes the bar; call it before printing results. */
  stop(): void;
}

export interface ProgressOptions {
  /** What the work is, shown before the bar (`importing`, `compacting`). */
  label: string;
  total: number;
  /** What one step is, after the counts (`messages`). */
  unit?: string;
}

const NO_PROGRESS: Progress = { update: () => undefined, increment: () => undefined, stop: () => undefined };

/** Starts a bar on `stream` (stderr, so piped stdout stays clean); returns a no-op off a terminal. */
export function startProgress(stream: CliStream, options: ProgressOptions): Progress {
  if (!stream.isTTY || stream.stream === undefined) return NO_PROGRESS;
  const bar = new cliProgress.SingleBar(
    {
      stream: stream.stream,
      format: `${options.label} {bar} {value}/{total}${options.unit === undefined ? '' : ` ${options.unit}`}`,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(options.total, 0);
  let stopped = false;
  return {
    update: (done, total) => {
      if (total !== undefined) bar.setTotal(total);
      bar.update(done);
    },
    increment: (steps = 1) => bar.increment(steps),
    stop: () => {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}
