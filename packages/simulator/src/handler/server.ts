import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiError, type ApiError } from '../wire/api-error.js';
import { SIMULATOR_ERROR_CODES, SimulatorError } from '../errors.js';
import { createFaultPlan } from './faults.js';
import { parseBetas } from '../features/features.js';
import { handleCountTokens } from './handle-count-tokens.js';
import type { Exchange } from './exchange.js';
import { createMessagesHandler } from './handle-messages.js';
import { createChatCompletionsHandler } from './handle-chat-completions.js';
import { createResponsesHandler } from './handle-responses.js';
import { createResponsesCompactHandler, RESPONSES_COMPACT } from './handle-responses-compact.js';
import { chatErrorBody } from '../wire/chat-wire.js';
import { geminiErrorBody } from '../wire/gemini-wire.js';
import { createGenerateContentHandler, GEMINI_ROUTE, handleGeminiCountTokens } from './handle-generate-content.js';
import { headerMap, readBody, sendError } from '../wire/http-io.js';
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../wire/json-depth.js';
import { createPromptCache } from '../features/prompt-cache.js';
import type { RecordedRequest } from './recorded-request.js';
import { createTurnQueue, type ScriptedTurn } from '../responders/scripted.js';
import { resolveOptions, type SimulatorOptions } from './simulator-options.js';
import { createSimulatorStats, type SimulatorStats } from './simulator-stats.js';

export interface Simulator {
  /** `http://127.0.0.1:PORT`: the SDK's `baseURL`. */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Running totals (requests, shape rejections, statuses, faults), counted as each exchange ends. */
  readonly stats: SimulatorStats;
  /** Queues assistant turns, answered before the replay and the default responder. */
  script(...turns: (ScriptedTurn | ScriptedTurn['content'])[]): void;
  faults: ReturnType<typeof createFaultPlan>;
  clearCache(): void;
  close(): Promise<void>;
}

const CHAT_COMPLETIONS = '/v1/chat/completions';
const RESPONSES = '/v1/responses';
/** The routes that answer errors in OpenAI's shape. */
const OPENAI_ROUTES = new Set([CHAT_COMPLETIONS, RESPONSES, RESPONSES_COMPACT]);
const ROUTES = new Set(['/v1/messages', '/v1/messages/count_tokens', ...OPENAI_ROUTES]);

/**
 * For a route that exists under `/v1`: a client whose base URL must end in `/v1` (the AI SDK's providers, the `openai`
 * SDK) given the bare URL the Anthropic SDK takes sends `/messages`; the 404 says what its base URL should be.
 */
function versionHint(path: string, host: string | undefined): string {
  if (!ROUTES.has(`/v1${path}`) || host === undefined) return '';
  return ` (this server's routes start with /v1: a client that adds only the route to its base URL, like @ai-sdk/anthropic or the openai SDK, takes http://${host}/v1)`;
}

/** Starts a local server that speaks the Anthropic Messages API, OpenAI's Chat Completions and Responses, and Gemini's generateContent (see the README for every rule). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const resolved = resolveOptions(options);
  const requests: RecordedRequest[] = [];
  const { stats, tally } = createSimulatorStats();
  const faults = createFaultPlan(resolved.faults);
  const cache = createPromptCache(resolved.now ?? Date.now);
  const turns = createTurnQueue(resolved.replay);
  let modelRequests = 0;
  const nextRequestNumber = () => ++modelRequests;
  const handleMessages = createMessagesHandler({ options: resolved, faults, cache, turns, nextRequestNumber });
  const chatCache = createPromptCache(resolved.now ?? Date.now);
  const geminiCache = createPromptCache(resolved.now ?? Date.now);
  const responsesCache = createPromptCache(resolved.now ?? Date.now);
  const handleChat = createChatCompletionsHandler({
    options: resolved,
    faults,
    cache: chatCache,
    turns,
    nextRequestNumber,
  });
  const handleGemini = createGenerateContentHandler({
    options: resolved,
    faults,
    cache: geminiCache,
    turns,
    nextRequestNumber,
  });
  const handleResponses = createResponsesHandler({
    options: resolved,
    faults,
    cache: responsesCache,
    turns,
    nextRequestNumber,
  });
  const handleResponsesCompact = createResponsesCompactHandler(resolved);
  let counter = 0;
  /** Body bytes of each recorded request (by its place in `requests`), so `maxRecordedBytes` bounds what is kept. */
  const recordedSizes = new WeakMap<RecordedRequest, number>();
  let recordedBytes = 0;
  const forget = (count: number): void => {
    for (const gone of requests.splice(0, count)) recordedBytes -= recordedSizes.get(gone) ?? 0;
  };
  const remember = (record: RecordedRequest, bytes: number): void => {
    recordedSizes.set(record, bytes);
    recordedBytes += bytes;
    const limit = resolved.maxRecordedBytes;
    if (limit === undefined) return;
    let drop = 0;
    let freed = 0;
    while (drop < requests.length - 1 && recordedBytes - freed > limit)
      freed += recordedSizes.get(requests[drop++]!) ?? 0;
    // The newest body alone past the limit is not kept either.
    if (recordedBytes - freed > limit && requests.at(-1) === record) record.body = undefined;
    if (drop > 0) forget(drop);
  };

  async function route(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const headers = headerMap(request);
    const record: RecordedRequest = {
      requestId,
      method: request.method ?? '',
      path,
      headers,
      betas: [...parseBetas(headers['anthropic-beta'])],
      body: undefined,
      status: 200,
      stream: false,
      rejectedForShape: false,
    };
    requests.push(record);
    if (resolved.maxRecordedRequests !== undefined && requests.length > resolved.maxRecordedRequests)
      forget(requests.length - resolved.maxRecordedRequests);
    response.once('close', () => tally(record));
    const gemini = GEMINI_ROUTE.exec(path);
    const fail = (error: ApiError) => {
      if (OPENAI_ROUTES.has(path) || gemini !== null) {
        const { status, body } = gemini === null ? chatErrorBody(error) : geminiErrorBody(error);
        Object.assign(record, { status, error: error.message, rejectedForShape: error.shape === true });
        response.writeHead(status, { 'content-type': 'application/json', ...error.headers });
        response.end(body);
        return;
      }
      Object.assign(record, { status: error.status, error: error.message, rejectedForShape: error.shape === true });
      sendError(response, requestId, error);
    };
    if (request.method !== 'POST' || (!ROUTES.has(path) && gemini === null)) {
      request.resume();
      return fail(
        apiError(404, `Not found: ${request.method ?? ''} ${path}${versionHint(path, request.headers.host)}`),
      );
    }
    const raw = await readBody(request, resolved.maxBodyBytes);
    remember(record, raw?.length ?? 0);
    if (raw === undefined)
      return fail(apiError(413, `Request exceeds the maximum allowed number of bytes (${resolved.maxBodyBytes}).`));
    try {
      record.body = JSON.parse(raw);
    } catch (error) {
      if (error instanceof RangeError)
        return fail(
          apiError(
            400,
            `There was an issue with the request body: JSON nested more than ${MAX_BODY_DEPTH} levels deep.`,
          ),
        );
      return fail(apiError(400, 'There was an issue with the request body: it is not valid JSON.'));
    }
    // Deeper bodies would overflow the stack of the checks that walk them (a 500); the API refuses them as invalid requests.
    if (nestedDeeperThan(record.body, MAX_BODY_DEPTH))
      return fail(
        apiError(400, `There was an issue with the request body: JSON nested more than ${MAX_BODY_DEPTH} levels deep.`),
      );
    const exchange: Exchange = { request, response, requestId, record, body: record.body, fail };
    if (path === '/v1/messages/count_tokens') return handleCountTokens(exchange, resolved);
    if (path === CHAT_COMPLETIONS) return handleChat(exchange);
    if (gemini !== null) {
      const [, model = '', method] = gemini;
      if (method === 'countTokens') return handleGeminiCountTokens(exchange, model, resolved);
      return handleGemini(exchange, model, method === 'streamGenerateContent');
    }
    if (path === RESPONSES) return handleResponses(exchange);
    if (path === RESPONSES_COMPACT) return handleResponsesCompact(exchange);
    return handleMessages(exchange);
  }

  // Node checks both timeouts every 30 s by default: a 1 s limit would hold a slow client for up to 31 s.
  const connectionsCheckingInterval = Math.max(
    50,
    Math.min(30_000, Math.floor(Math.min(resolved.headersTimeoutMs, resolved.requestTimeoutMs) / 4)),
  );
  const server = createServer({ connectionsCheckingInterval }, (request, response) => {
    const requestId = `req_sim_${(++counter).toString(16).padStart(8, '0')}`;
    response.setHeader('request-id', requestId);
    route(request, response, requestId).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, requestId, apiError(500, `simulator failure: ${String(error)}`));
      else response.end();
    });
  });
  // Node waits 60 s for headers and 300 s for a request by default: many slow clients would hold every socket.
  server.headersTimeout = resolved.headersTimeoutMs;
  server.requestTimeout = resolved.requestTimeoutMs;
  await listen(server, resolved.port, resolved.host);
  const address = server.address() as AddressInfo;
  const urlHost = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  return {
    url: `http://${urlHost}:${address.port}`,
    requests,
    stats,
    script: (...queued) => turns.script(...queued),
    faults,
    clearCache: () => {
      for (const each of [cache, chatCache, geminiCache, responsesCache]) each.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new SimulatorError(
          SIMULATOR_ERROR_CODES.listenFailed,
          `startSimulator: cannot listen on ${host}:${port} (${error.message}); pick another port or pass port 0 for a free one.`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, host, () => resolve());
  });
}
