import type { Command } from 'commander';
import type { Host, LoadedConfig, SessionStore } from '@ctxhost/core';
import { gatewaySettings, startGateway, type Gateway } from '@ctxhost/gateway';
import { createPostgresStoreFromConfig } from '@ctxhost/store-postgres';
import { createDefaultHost } from 'ctxhost';
import { CLI_ERROR_CODES, CliError } from '../errors.js';
import { loadCliConfig, printConfigWarnings } from '../load-cli-config.js';
import type { CliIo } from '../output/index.js';
import { wholeNumberFlag } from '../parse-flags.js';
import { untilStopSignal } from '../until-stop-signal.js';

interface GatewayCommandOptions {
  upstream?: string;
  port: number;
  host: string;
  cwd: string;
  config?: string;
}

/** `ctxhost gateway --upstream <url>`: ctxhost in front of a provider, for agents that only take a base URL; until Ctrl+C or SIGTERM. */
export function registerGatewayCommand(program: Command, io: CliIo): void {
  program
    .command('gateway')
    .description(
      'start an HTTP gateway in front of a provider (Anthropic, OpenAI Chat Completions and Responses, Gemini) that compacts before the window and recovers from overflows, for any agent that takes a base URL',
    )
    .option('--upstream <url>', 'where requests go (default: hooks.gateway.upstream / upstreams in the config)')
    .option('--port <n>', 'the port; 0 picks a free one', wholeNumberFlag(0, 65_535), 0)
    .option('--host <address>', 'the address to listen on', '127.0.0.1')
    .option('--cwd <dir>', 'the project folder whose .ctxhost/config.yaml applies', process.cwd())
    .option('--config <file>', 'a config file read after the user and project files')
    .addHelpText(
      'after',
      '\nExample:\n  ctxhost gateway --upstream https://api.anthropic.com --port 8788\n  ANTHROPIC_BASE_URL=http://127.0.0.1:8788 claude -p "…"',
    )
    .action(async (options: GatewayCommandOptions) => {
      const loaded = await loadCliConfig({
        cwd: options.cwd,
        ...(options.config === undefined ? {} : { configFile: options.config }),
      });
      printConfigWarnings(loaded, io.err);
      const settings = gatewaySettings(loaded.config, checkedUpstream(options.upstream));
      const store = storeOf(loaded);
      let host: Promise<Host> | undefined;
      const hostOnce = () =>
        (host ??= createDefaultHost({
          config: loaded.config,
          cwd: options.cwd,
          ...(store === undefined ? {} : { store }),
        }));
      const gateway = await start(options, settings, hostOnce);
      const stopped = untilStopSignal();
      io.out.write(
        `ctxhost gateway listening on ${gateway.url}${options.upstream === undefined ? '' : ` → ${options.upstream}`} (Ctrl+C stops it; streams in flight finish first)\n`,
      );
      const signal = await stopped;
      await gateway.close();
      if (host !== undefined) await (await host).dispose();
      io.err.write(`ctxhost gateway stopped (${signal})\n`);
    });
}

function checkedUpstream(upstream: string | undefined): string | undefined {
  if (upstream === undefined) return undefined;
  if (!URL.canParse(upstream) || !/^https?:$/.test(new URL(upstream).protocol))
    throw new CliError(CLI_ERROR_CODES.usage, `gateway: --upstream ${upstream} is not an http(s) URL`);
  return upstream;
}

function storeOf(loaded: LoadedConfig): SessionStore | undefined {
  return loaded.config.store.kind === 'postgres' ? createPostgresStoreFromConfig(loaded.config.store) : undefined;
}

async function start(
  options: GatewayCommandOptions,
  settings: ReturnType<typeof gatewaySettings>,
  host: () => Promise<Host>,
): Promise<Gateway> {
  try {
    return await startGateway({ settings, host, port: options.port, hostname: options.host });
  } catch (error) {
    throw new CliError(CLI_ERROR_CODES.usage, error instanceof Error ? error.message : String(error), { cause: error });
  }
}
