/** The gateway's own errors, with stable codes. Only start-up and configuration fail this way: a request never gets ctxhost's trouble as its error. */
export const GATEWAY_ERROR_CODES = {
  configInvalid: 'CTXHOST_GATEWAY_CONFIG_INVALID',
  listenFailed: 'CTXHOST_GATEWAY_LISTEN_FAILED',
  upstreamInvalid: 'CTXHOST_GATEWAY_UPSTREAM_INVALID',
} as const;
export type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[keyof typeof GATEWAY_ERROR_CODES];

const MARKER = Symbol.for('ctxhost.GatewayError');

export class GatewayError extends Error {
  readonly [MARKER] = true;
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GatewayError';
  }

  static isInstance(value: unknown): value is GatewayError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
