/**
 * The simulator's own errors (about how it is started, not the API errors it
 * answers with: those are in api-error.ts). Stand-alone: the simulator does not
 * depend on @ctxhost/core, so it carries its own marker, the same `Symbol.for`
 * key core uses, so core's `CtxhostError.isInstance` recognises these too.
 */
export const SIMULATOR_ERROR_CODES = {
  optionsInvalid: 'CTXHOST_SIMULATOR_OPTIONS_INVALID',
  listenFailed: 'CTXHOST_SIMULATOR_LISTEN_FAILED',
} as const;

export type SimulatorErrorCode = (typeof SIMULATOR_ERROR_CODES)[keyof typeof SIMULATOR_ERROR_CODES];

const CTXHOST_ERROR = Symbol.for('ctxhost.error');
const SIMULATOR_ERROR = Symbol.for('ctxhost.simulator.error');

export class SimulatorError extends Error {
  readonly code: SimulatorErrorCode;
  readonly [CTXHOST_ERROR] = true;
  readonly [SIMULATOR_ERROR] = true;

  constructor(code: SimulatorErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SimulatorError';
    this.code = code;
  }

  static isInstance(value: unknown): value is SimulatorError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { [SIMULATOR_ERROR]?: unknown })[SIMULATOR_ERROR] === true
    );
  }
}
