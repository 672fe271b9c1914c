import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createOpencodeClient, type Event, type OpencodeClient } from '@opencode-ai/sdk';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pluginEntry = join(root, 'packages/opencode/dist/index.js');

export const MODEL = { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' } as const;

/** One opencode project (a directory with its own `opencode.json` and `.opencode/ctxhost.yaml`, so its own plugin instance). */
export interface OpencodeProjectOptions {
  /** `.opencode/ctxhost.yaml`, as YAML text; given the scratch folder. */
  ctxhostYaml: (scratch: string) => string;
  /** Leave opencode's own compaction on (default: off, so ctxhost is the one that recovers). */
  opencodeCompaction?: boolean;
  /** Another simulator (and window) for this project than the server's first one. */
  simulatorUrl?: string;
  contextLimit?: number;
  /** More opencode plugins (file URLs), loaded after ctxhost's. */
  plugins?: string[];
  /** A module (file URL) opencode loads in place of ctxhost's build (`dist/index.js`), e.g. one that wraps it. */
  ctxhostPlugin?: string;
}

export interface OpencodeServerOptions extends OpencodeProjectOptions {
  /** The simulator's base URL (`sim.url`). */
  simulatorUrl: string;
  /** The model's window as opencode (and so ctxhost) sees it. */
  contextLimit: number;
}

export interface OpencodeProject {
  directory: string;
  /** Where the test keeps files of its own (the ctxhost store, …). */
  scratch: string;
  /** A client for this project (opencode serves each directory as its own instance). */
  client: OpencodeClient;
  /** Every event this project's instance published since it was opened. */
  events: Event[];
  /** Why `events` stopped growing (opencode closed the stream, or it failed), once it has: a wait for an event then cannot end. */
  eventsEnded: string | undefined;
}

export interface OpencodeServer extends OpencodeProject {
  url: string;
  /**
   * Another project on the same `opencode serve`: one process serves many
   * directories, each with its own config and plugin instance, so a test file
   * with several configs starts opencode once.
   */
  openProject(options: OpencodeProjectOptions): Promise<OpencodeProject>;
  /** The lines opencode wrote to its log for `service` (ctxhost's logger writes as `ctxhost`). */
  logLines(service: string): Promise<string[]>;
  close(): Promise<void>;
}

/** opencode's binary from the pinned `opencode-ai` package. */
function opencodeBinary(): string {
  const require = createRequire(join(root, 'packages/opencode/package.json'));
  return join(dirname(require.resolve('opencode-ai/package.json')), 'bin', 'opencode.exe');
}

/**
 * Starts the real `opencode serve` on 127.0.0.1 (a free port) in a temp
 * project whose anthropic provider points at the simulator and which loads
 * ctxhost's plugin from the workspace build. HOME and the XDG folders are
 * temp folders, so nothing touches the user's own config.
 */
export async function startOpencodeServer(options: OpencodeServerOptions): Promise<OpencodeServer> {
  const base = await mkdtemp(join(tmpdir(), 'ctxhost-opencode-'));
  let projects = 0;
  const trusted: string[] = [];
  const createProject = async (project: OpencodeProjectOptions) => {
    const folder = join(base, `project-${projects++}`);
    const directory = join(folder, 'project');
    const scratch = join(folder, 'scratch');
    await mkdir(scratch, { recursive: true });
    // The person's own test projects: their ctxhost.yaml may name the store folder (refused from an untrusted project).
    trusted.push(directory);
    await mkdir(join(base, 'ctxhost-user-config'), { recursive: true });
    await writeFile(join(base, 'ctxhost-user-config', 'config.yaml'), `trusted_projects: ${JSON.stringify(trusted)}\n`);
    await markPluginDependencyInstalled(join(directory, '.opencode'));
    await writeFile(join(directory, 'opencode.json'), JSON.stringify(opencodeConfig(options, project), null, 2));
    await writeFile(join(directory, '.opencode', 'ctxhost.yaml'), project.ctxhostYaml(scratch));
    return { directory, scratch };
  };
  await markPluginDependencyInstalled(join(base, 'xdg', 'config', 'opencode'));
  const first = await createProject(options);
  const child = spawn(opencodeBinary(), ['serve', '--port', '0', '--hostname', '127.0.0.1'], {
    cwd: first.directory,
    env: isolatedEnv(base),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await listeningUrl(child);
  const connect = async ({ directory, scratch }: { directory: string; scratch: string }): Promise<OpencodeProject> => {
    const client = createOpencodeClient({ baseUrl: url, directory });
    const project: OpencodeProject = { directory, scratch, client, events: [], eventsEnded: undefined };
    const subscription = await client.event.subscribe();
    void (async () => {
      for await (const event of subscription.stream) project.events.push(event);
      project.eventsEnded = `opencode closed the event stream after ${project.events.length} events`;
    })().catch((error: unknown) => {
      project.eventsEnded = `the event stream failed after ${project.events.length} events: ${String(error)}`;
    });
    return project;
  };
  const server: Omit<OpencodeServer, keyof OpencodeProject> = {
    url,
    openProject: async (project) => connect(await createProject(project)),
    logLines: (service) => logLinesOf(join(base, 'xdg', 'data', 'opencode', 'log'), service),
    async close() {
      await stop(child);
      await rm(base, { recursive: true, force: true });
    },
  };
  // The first project itself, not a copy: `eventsEnded` is set on it later.
  return Object.assign(await connect(first), server);
}

/**
 * opencode installs `@opencode-ai/plugin` from npm into every config folder
 * (`.opencode`, the global config) for local plugin files, unless that folder
 * already has a `node_modules` and a lock that lists it. These projects have
 * no local plugin files (ctxhost's plugin loads from the workspace build), so
 * the folder is marked installed: no registry call, and about 40 s less per
 * project on this machine.
 */
async function markPluginDependencyInstalled(folder: string): Promise<void> {
  await mkdir(join(folder, 'node_modules'), { recursive: true });
  const lock = { lockfileVersion: 3, packages: { '': { dependencies: { '@opencode-ai/plugin': '*' } } } };
  await writeFile(join(folder, 'package-lock.json'), JSON.stringify(lock, null, 2));
}

async function logLinesOf(folder: string, service: string): Promise<string[]> {
  const files = (await readdir(folder).catch(() => [])).filter((name) => name.endsWith('.log')).sort();
  const texts = await Promise.all(files.map((name) => readFile(join(folder, name), 'utf8')));
  return texts.flatMap((text) => text.split('\n')).filter((line) => line.includes(`service=${service} `));
}

/** Models the provider offers besides the session's: a cheaper one, for a compaction model per agent. */
export const COMPACTION_MODEL = { providerID: 'anthropic', modelID: 'claude-haiku-4-5' } as const;

function opencodeConfig(options: OpencodeServerOptions, project: OpencodeProjectOptions) {
  const limit = { limit: { context: project.contextLimit ?? options.contextLimit, output: 4_000 } };
  return {
    $schema: 'https://opencode.ai/config.json',
    model: `${MODEL.providerID}/${MODEL.modelID}`,
    autoupdate: false,
    share: 'disabled',
    plugin: [project.ctxhostPlugin ?? pathToFileURL(pluginEntry).href, ...(project.plugins ?? [])],
    permission: { bash: 'allow', edit: 'allow', webfetch: 'deny' },
    // opencode's own compaction stays off unless asked for, so ctxhost is the one that recovers (per project, so one server serves both).
    compaction: { auto: project.opencodeCompaction === true },
    provider: {
      anthropic: {
        options: { baseURL: `${project.simulatorUrl ?? options.simulatorUrl}/v1`, apiKey: 'sk-ant-simulator' },
        models: { [MODEL.modelID]: limit, [COMPACTION_MODEL.modelID]: limit },
      },
    },
  };
}

function isolatedEnv(base: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: join(base, 'home'),
    XDG_CONFIG_HOME: join(base, 'xdg', 'config'),
    XDG_DATA_HOME: join(base, 'xdg', 'data'),
    XDG_CACHE_HOME: join(base, 'xdg', 'cache'),
    XDG_STATE_HOME: join(base, 'xdg', 'state'),
    CTXHOST_CONFIG_DIR: join(base, 'ctxhost-user-config'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
  };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`opencode serve did not report its address within 60 s; output:\n${output}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolveUrl(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`opencode serve exited with code ${code}; output:\n${output}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Polls until `check` returns a value other than undefined (or throws after `timeoutMs`). */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolveDelay) => setTimeout(resolveDelay, 100));
  }
}
