import { startSimulator, type Simulator, type SimulatorOptions } from '@ctxhost/simulator';
import { afterAll, beforeAll } from 'vitest';
import { startOpencodeServer, type OpencodeServer, type OpencodeServerOptions } from '../opencode-server.js';

/**
 * Starts, for the test file, a simulator with the given window and an opencode
 * server pointed at it (before all its tests), hands both to `started`, and
 * closes them after.
 */
export function useSimulatedOpencode(
  options: Omit<OpencodeServerOptions, 'simulatorUrl'> & Pick<SimulatorOptions, 'overflowStyle'>,
  started: (running: { sim: Simulator; server: OpencodeServer }) => void,
): void {
  let sim: Simulator | undefined;
  let server: OpencodeServer | undefined;
  beforeAll(async () => {
    sim = await startSimulator({
      contextLimit: options.contextLimit,
      ...(options.overflowStyle === undefined ? {} : { overflowStyle: options.overflowStyle }),
    });
    server = await startOpencodeServer({ ...options, simulatorUrl: sim.url });
    started({ sim, server });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await sim?.close();
  }, 60_000);
}
