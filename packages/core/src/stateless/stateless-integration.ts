import type { PartialConfig } from '../config/host-config.js';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import type { Host } from '../host/host.js';
import type { MappedPromptItem } from '../host/prompt-mirror.js';
import type { ToolDefinition } from '../model/model-client.js';
import type { ProviderError } from '../model/provider-error.js';
import { createStatelessContext, type StatelessContext, type StatelessRequest } from './stateless-context.js';

/** The options every framework integration takes, under the same names. */
export interface IntegrationOptions {
  /** The host whose hooks run. Default: the integration's default host for `config`, built on the first call. */
  host?: Host | Promise<Host>;
  /** Config for the default host (ignored when `host` is given). With no `store`, the cache lives in memory. */
  config?: PartialConfig;
  /** The model's window in tokens. Default: `model.context_length` in the config, else the model registry's window for the model. */
  contextWindow?: number;
  /** The model name the window and prices are looked up by, when the framework does not say. */
  model?: string;
  /** The output budget the request hooks plan with when a call sets none (default 4096). */
  maxOutputTokens?: number;
  /**
   * @deprecated A conversation is its messages on the stateless path: no session to name. Ignored (said once).
   */
  sessionId?: string;
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

export interface StatelessIntegration<S, P> extends StatelessContext<S, P> {
  /** The host (built on the first call when none was given). */
  host(): Promise<Host>;
  /** A request's settings with the integration's defaults filled in. */
  request(call: {
    model?: string;
    maxOutputTokens?: number;
    tools?: ToolDefinition[];
    signal?: AbortSignal;
  }): StatelessRequest;
}

export interface CreateStatelessIntegrationOptions<S, P> {
  /** The integration's name, in warnings and tap names. */
  name: string;
  options: IntegrationOptions;
  map: (source: S, id: string) => MappedPromptItem<P>;
  /** The framework's error shapes (see `StatelessContextOptions.overflowOf`). */
  overflowOf?: (error: unknown) => ProviderError | undefined;
  /** Builds the default host (the integration passes `createDefaultHost` from `ctxhost`). */
  createDefaultHost(config: PartialConfig): Host | Promise<Host>;
}

/**
 * The shared core of a framework integration: its options checked once, the default host (its cache in
 * memory unless the config names a store), and the stateless context. A framework package keeps only the
 * mapping of its messages, tools, replies and errors.
 */
export function createStatelessIntegration<S, P>(
  create: CreateStatelessIntegrationOptions<S, P>,
): StatelessIntegration<S, P> {
  const { name, options } = create;
  checkIntegrationOptions(name, options);
  let hostPromise: Promise<Host> | undefined;
  const host = (): Promise<Host> =>
    (hostPromise ??= Promise.resolve(
      options.host ??
        create.createDefaultHost({ ...options.config, store: options.config?.store ?? { kind: 'memory' } }),
    ));
  const context = createStatelessContext<S, P>({
    host,
    name,
    map: create.map,
    ...(create.overflowOf === undefined ? {} : { overflowOf: create.overflowOf }),
  });
  return {
    ...context,
    host,
    request: (call) => ({
      model: call.model ?? options.model ?? 'unknown',
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
      maxOutputTokens: call.maxOutputTokens ?? options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
      ...(call.tools === undefined ? {} : { tools: call.tools }),
      ...(call.signal === undefined ? {} : { signal: call.signal }),
    }),
  };
}

/** Refuses a window or budget that is not a whole number above 0; says once that `sessionId` is no longer used. */
export function checkIntegrationOptions(name: string, options: IntegrationOptions): void {
  for (const key of ['contextWindow', 'maxOutputTokens'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value > 0))
      throw new CtxhostError(
        CORE_ERROR_CODES.configInvalid,
        `${name}: ${key}: expected a whole number of tokens above 0, got ${JSON.stringify(value)}`,
      );
  }
  if (options.sessionId !== undefined)
    warnDeprecated(
      `${name}:sessionId`,
      `${name}: the sessionId option is no longer used: a conversation is identified by its messages, so two users never share one, and no lock is taken; remove it`,
    );
}

const said = new Set<string>();

/** A deprecation, said once per process (`process.emitWarning`, type DeprecationWarning). */
export function warnDeprecated(key: string, text: string): void {
  if (said.has(key)) return;
  said.add(key);
  process.emitWarning(text, { type: 'DeprecationWarning', code: 'CTXHOST_DEPRECATED' });
}
