import { formatConfigWarning, type ConfigWarning, type HostLogger } from '@ctxhost/core';

/** Warnings already written to stderr by this process: each is said once, however many hosts load the config. */
const said = new Set<string>();

/**
 * Says the config's warnings (an unknown hook name in `disabled_hooks`, an old
 * alias, …) to the host's logger when one is given; else each once to stderr,
 * so a library user hears about a misspelt hook as the CLI user does.
 */
export function reportConfigWarnings(
  warnings: readonly ConfigWarning[],
  logger: HostLogger | undefined,
  writeStderr: (text: string) => void = (text) => void process.stderr.write(text),
): void {
  for (const warning of warnings) {
    const text = formatConfigWarning(warning);
    if (logger !== undefined) logger.warn(text);
    else if (!said.has(text)) {
      said.add(text);
      writeStderr(`ctxhost: warning: ${text}\n`);
    }
  }
}
