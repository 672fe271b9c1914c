import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  ContextWindowStop,
  createStatelessContext,
  estimateTextTokens,
  ORIGINAL_TOOL,
  ORIGINAL_TOOL_NAME,
  showsShortened,
  type Host,
  type JsonValue,
  type Message,
  type PromptOriginals,
  type StatelessContext,
} from '@ctxhost/core';
import { createConcurrencyLimit, type ConcurrencyLimit } from './concurrency-limit.js';
import { callerHeaders, forward, upstreamHeaders, upstreamUrl } from './forward.js';
import type { GatewaySettings } from './gateway-config.js';
import { createGatewayMetrics, type GatewayMetrics } from './gateway-metrics.js';
import { WINDOW_STOP } from './protocols/anthropic-protocol.js';
import { mapPromptItem, type PromptItem } from './protocols/prompt-item.js';
import { familyOf, matchProtocol } from './protocols/protocols.js';
import type { JsonObject, ProtocolName, ReadRequest, WireProtocol } from './protocols/wire-protocol.js';
import { answerOriginalCalls, MAX_ORIGINAL_ROUNDS, runOriginalRounds, type CompleteRound } from './original-rounds.js';
import { readBody } from './read-body.js';
import { readStreamOpening } from './stream-opening.js';
import { relayStream } from './stream-relay.js';
import { UpstreamError } from './upstream-error.js';

export interface GatewayHandlerOptions {
  settings: GatewaySettings;
  /** The host whose hooks project each request; called on the first request. */
  host: () => Host | Promise<Host>;
  metrics?: GatewayMetrics;
}

/** A Node request listener that is the gateway; mount it in any `http.Server`. */
export interface GatewayHandler {
  (request: IncomingMessage, response: ServerResponse): void;
  readonly metrics: GatewayMetrics;
  readonly limit: ConcurrencyLimit;
  /** Live views across the protocols' stateless contexts. */
  views(): number;
}

/** What one send to the upstream gave: a complete reply, or a stream to relay. */
type Sent = ({ kind: 'complete' } & CompleteRound) | { kind: 'stream'; upstream: Response };

export function createGatewayHandler(options: GatewayHandlerOptions): GatewayHandler {
  const { settings } = options;
  const metrics = options.metrics ?? createGatewayMetrics();
  const limit = createConcurrencyLimit(settings.maxConcurrentRequests);
  let hostPromise: Promise<Host> | undefined;
  const hostOnce = () => (hostPromise ??= Promise.resolve(options.host()));
  // One stateless context per protocol: a live view holds the items of the request that built it, so views are shared only between requests of one wire shape.
  const contexts = new Map<ProtocolName, StatelessContext<PromptItem, unknown>>();
  const statelessFor = (protocol: ProtocolName) => {
    let context = contexts.get(protocol);
    if (context === undefined) {
      context = createStatelessContext<PromptItem, unknown>({
        host: hostOnce,
        name: `gateway-${protocol}`,
        map: mapPromptItem,
      });
      contexts.set(protocol, context);
    }
    return context;
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const pathAndQuery = request.url ?? '/';
    const path = pathAndQuery.split('?')[0] ?? '/';
    if (method === 'GET' && path === '/healthz') return sendText(response, 200, 'application/json', '{"status":"ok"}');
    if (method === 'GET' && path === '/metrics')
      return sendText(response, 200, 'text/plain; version=0.0.4', metrics.render());
    const matched = matchProtocol(method, path);
    const protocol = matched?.protocol ?? familyOf(path);
    const release = limit.tryAcquire();
    if (release === undefined) {
      metrics.request(protocol.name, 503);
      request.resume();
      return sendText(
        response,
        503,
        'application/json',
        protocol.errorBody(503, 'ctxhost gateway: too many requests in flight; retry shortly'),
        { 'retry-after': '1' },
      );
    }
    metrics.inFlight(limit.active);
    const started = performance.now();
    try {
      const body = await readBody(request, settings.maxBodyBytes);
      if (body === undefined) {
        metrics.request(protocol.name, 413);
        return sendText(
          response,
          413,
          'application/json',
          protocol.errorBody(413, `ctxhost gateway: the request is over ${settings.maxBodyBytes} bytes`),
        );
      }
      const json = matched === undefined ? undefined : parseObject(body);
      let read: ReadRequest | undefined;
      try {
        read = json === undefined ? undefined : matched!.protocol.read(json, matched!.route);
      } catch {
        read = undefined;
      }
      const base = settings.upstreamFor(protocol.name, read?.model ?? matched?.route.model);
      if (base === undefined) {
        metrics.request(protocol.name, 502);
        return sendText(
          response,
          502,
          'application/json',
          protocol.errorBody(
            502,
            'ctxhost gateway: no upstream configured for this request (--upstream, or hooks.gateway.upstream in the config)',
          ),
        );
      }
      const target = { url: upstreamUrl(base, pathAndQuery), method, headers: upstreamHeaders(request.headers) };
      const abort = new AbortController();
      response.once('close', () => {
        if (!response.writableFinished) abort.abort();
      });
      if (read === undefined || json === undefined) {
        metrics.addedLatency((performance.now() - started) / 1000);
        return await passThrough(response, protocol, target, body, abort.signal);
      }
      await project(response, protocol, target, { body, json, read }, abort.signal, started);
    } finally {
      release();
      metrics.inFlight(limit.active);
    }
  }

  async function passThrough(
    response: ServerResponse,
    protocol: WireProtocol,
    target: { url: string; method: string; headers: Headers },
    body: Buffer,
    signal: AbortSignal,
  ): Promise<void> {
    const upstream = await forward({ ...target, body: body.length === 0 ? undefined : body, signal });
    metrics.request(protocol.name, upstream.status);
    await relayStream(upstream, response, () => undefined);
  }

  async function project(
    response: ServerResponse,
    protocol: WireProtocol,
    target: { url: string; method: string; headers: Headers },
    request: { body: Buffer; json: JsonObject; read: ReadRequest },
    signal: AbortSignal,
    started: number,
  ): Promise<void> {
    const { read, json } = request;
    const stateless = statelessFor(protocol.name);
    const turn = await stateless.prepare(read.prompt, {
      model: read.model,
      ...contextWindowOf(settings, read.model),
      maxOutputTokens: read.maxOutputTokens,
      tools: read.tools,
      signal,
    });
    let sends = 0;
    // `ctxhost_original` goes only to a client that sends tools (so it takes tool calls), once the projection shows something to read back.
    const rounds = protocol.toolRounds;
    const mayOffer = rounds !== undefined && read.tools.length > 0 && !read.tools.some(isOriginalTool);
    /** The body of the last send when it offered `ctxhost_original` (the next round continues it). */
    let offered: JsonObject | undefined;
    /** The projection as the request's body; if writing it fails, the caller's own body (ctxhost's trouble is never the caller's). */
    const writeOrKeep = (messages: readonly Message[]): string | Buffer => {
      offered = undefined;
      try {
        const written = protocol.write(json, read, messages, turn.originals);
        if (mayOffer && showsShortened(messages)) offered = protocol.offerTool(written, ORIGINAL_TOOL);
        return JSON.stringify(offered ?? written);
      } catch (error) {
        stateless.report(
          `write:${protocol.name}`,
          `a projection could not be written as a ${protocol.name} request; the request went out as sent`,
          error,
        );
        return request.body;
      }
    };
    const send = async (messages: readonly Message[] | undefined): Promise<Sent> => {
      sends++;
      if (messages === undefined) offered = undefined;
      const body = messages === undefined ? request.body : writeOrKeep(messages);
      if (sends === 1) {
        metrics.addedLatency((performance.now() - started) / 1000);
        if (messages !== undefined && typeof body === 'string' && compacted(messages, read, turn.originals))
          metrics.compaction(savedTokens(request.body, body));
      }
      const upstream = await forward({ ...target, body, signal });
      if (!upstream.ok)
        throw new UpstreamError(upstream.status, callerHeaders(upstream.headers), await upstream.text());
      if (read.stream) return openStream(upstream);
      const sent: Sent = { kind: 'complete', ...(await completeRound(upstream)) };
      if (isWindowStop(sent.reply)) throw new ContextWindowStop(sent, undefined);
      return sent;
    };
    /** A stream whose opening is an overflow (an error event, a stop at the window) is thrown like an error status: recovered, as nothing was relayed yet. */
    const openStream = async (upstream: Response): Promise<Sent> => {
      if (protocol.openingEvent === undefined) return { kind: 'stream', upstream };
      const opening = await readStreamOpening(upstream, (name, data) => protocol.openingEvent!(name, data));
      if (opening.kind === 'stream') return { kind: 'stream', upstream: opening.upstream };
      if (opening.kind === 'window-stop')
        throw new ContextWindowStop<Sent>({ kind: 'stream', upstream: opening.replay }, undefined);
      throw new UpstreamError(upstream.status, callerHeaders(upstream.headers), opening.text, opening.data);
    };
    const readOriginal = (input: JsonValue) => turn.readOriginal(input);
    const sendJson = (body: JsonObject) => forward({ ...target, body: JSON.stringify(body), signal });
    let sent: Sent;
    try {
      sent = await turn.run(send, {
        usageOf: (result) => (result.kind === 'complete' ? protocol.usageOf(result.reply) : undefined),
      });
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      metrics.request(protocol.name, error.status);
      response.writeHead(error.status, error.headers);
      response.end(error.body);
      return;
    }
    if (sends > 1) metrics.recovery();
    metrics.request(protocol.name, sent.kind === 'complete' ? sent.status : sent.upstream.status);
    const onUsageEvent = (event: unknown) => {
      const usage = protocol.usageOf(event);
      if (usage !== undefined) metrics.usage(protocol.name, usage);
    };
    if (sent.kind === 'stream') {
      if (rounds === undefined || offered === undefined) return relayStream(sent.upstream, response, onUsageEvent);
      let continued = offered;
      return rounds.relayStream(sent.upstream, response, {
        toolName: ORIGINAL_TOOL_NAME,
        maxRounds: MAX_ORIGINAL_ROUNDS,
        onUsageEvent,
        async next(reply) {
          const answers = await answerOriginalCalls(rounds.callsOf(reply), readOriginal);
          if (answers === undefined) return undefined;
          continued = rounds.continueWith(continued, reply, answers);
          return sendJson(continued);
        },
      });
    }
    onUsageEvent(sent.reply);
    if (rounds !== undefined && offered !== undefined)
      sent = {
        kind: 'complete',
        ...(await runOriginalRounds(rounds, offered, sent, readOriginal, async (body) => {
          const round = await completeRound(await sendJson(body));
          onUsageEvent(round.reply);
          return round;
        })),
      };
    response.writeHead(sent.status, sent.headers);
    response.end(sent.text);
  }

  const handler = ((request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      const protocol = familyOf(request.url ?? '/');
      if (!response.headersSent) {
        metrics.request(protocol.name, 502);
        sendText(
          response,
          502,
          'application/json',
          protocol.errorBody(502, `ctxhost gateway: the upstream could not be reached (${messageOf(error)})`),
        );
      } else response.destroy();
    });
  }) as GatewayHandler;
  const views = () => [...contexts.values()].reduce((sum, context) => sum + context.stats().views, 0);
  return Object.assign(handler, { metrics, limit, views });
}

async function completeRound(upstream: Response): Promise<CompleteRound> {
  const text = await upstream.text();
  return { status: upstream.status, headers: callerHeaders(upstream.headers), text, reply: parseJson(text) };
}

function isOriginalTool(tool: { name: string }): boolean {
  return tool.name === ORIGINAL_TOOL_NAME;
}

function contextWindowOf(settings: GatewaySettings, model: string): { contextWindow?: number } {
  const window = settings.contextWindowOf(model);
  return window === undefined ? {} : { contextWindow: window };
}

/** The projection left messages out or rewrote some (not only cache breakpoints). */
function compacted(
  messages: readonly Message[],
  read: ReadRequest,
  originals: PromptOriginals<PromptItem, unknown>,
): boolean {
  return (
    messages.length !== read.prompt.length || messages.some((message) => originals.message(message.id) === undefined)
  );
}

function isWindowStop(reply: unknown): boolean {
  const object = reply as { stop_reason?: unknown; content?: unknown } | undefined;
  return object?.stop_reason === WINDOW_STOP && (!Array.isArray(object.content) || object.content.length === 0);
}

function savedTokens(before: Buffer, after: string): number {
  return estimateTextTokens(before.toString('utf8')) - estimateTextTokens(after);
}

function parseObject(body: Buffer): JsonObject | undefined {
  const value = parseJson(body.toString('utf8'));
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } } | undefined)?.cause?.message;
  return typeof cause === 'string' ? cause : error instanceof Error ? error.message : String(error);
}

function sendText(
  response: ServerResponse,
  status: number,
  contentType: string,
  text: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': contentType, ...headers });
  response.end(text);
}
