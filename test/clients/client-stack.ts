import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDefaultHost } from 'ctxhost';
import { GatewaySectionSchema, settingsFrom, startGateway, type Gateway } from '@ctxhost/gateway';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

/** Where scripts/install-test-clients.mjs put the agents' packages. */
export const CLIENTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.test-clients', 'node_modules');

export interface ClientStack {
  sim: Simulator;
  gateway: Gateway;
  /** A scratch folder: `home` (the agent's HOME) and `project` (its working folder). */
  home: string;
  project: string;
  close(): Promise<void>;
}

/**
 * The simulator with a small window, and an in-process gateway in front of it that manages every
 * model to that window (the agents believe their models have their usual, far larger windows).
 */
export async function startClientStack(window: number): Promise<ClientStack> {
  const sim = await startSimulator({ contextLimit: window, acceptAnyModel: true });
  const gateway = await startGateway({
    settings: settingsFrom(GatewaySectionSchema.parse({}), sim.url),
    host: () => createDefaultHost({ config: { store: { kind: 'memory' }, model: { contextLength: window } } }),
  });
  const scratch = await mkdtemp(join(tmpdir(), 'ctxhost-client-'));
  const home = join(scratch, 'home');
  const project = join(scratch, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
  return {
    sim,
    gateway,
    home,
    project,
    async close() {
      await gateway.close();
      await sim.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

export interface ClientRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one agent command to its end, stdin closed (some agents read a prompt from a piped stdin); never throws: a failed turn is data. */
export function runClient(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<ClientRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** About `tokens` tokens of a user's paste, numbered by turn (so no two turns are alike). */
export function pasteOf(turn: number, tokens: number): string {
  const line = `Turn ${turn} ledger: the figure for account ${turn} is ${turn * 7}; keep it for the summary. `;
  return line.repeat(Math.ceil(tokens / 25));
}

/** Runs `turns` turns; resolves with each turn's run. Stops after the first failure. */
export async function converse(turns: number, turn: (index: number) => Promise<ClientRun>): Promise<ClientRun[]> {
  const runs: ClientRun[] = [];
  for (let index = 0; index < turns; index++) {
    const run = await turn(index);
    runs.push(run);
    if (run.code !== 0) break;
  }
  return runs;
}
