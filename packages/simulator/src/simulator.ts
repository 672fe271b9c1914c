import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiError, errorBody, type ApiError } from './api-error.js';
import { createFaultPlan, type Fault, type RandomFaults } from './faults.js';
import { createPromptCache } from './prompt-cache.js';
import { defaultTurn, toTurn, type ScriptedTurn } from './responders.js';
import { streamMessage } from './sse.js';
import { countTextTokens, countTokens } from './tokenizer.js';
import { validateRequest } from './validate-request.js';
import type { AssistantTurn, MessagesRequest, WireUsage } from './wire.js';

/** How a model behaves at its window: the error variant it returns, or a successful stop. */
export type OverflowStyle = 'prompt_too_long' | 'input_plus_max_tokens' | 'stop_reason';

export interface ModelLimits {
  contextLimit?: number;
  overflowStyle?: OverflowStyle;
  /** Below this many prompt tokens a breakpoint caches nothing. */
  minCacheableTokens?: number;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** Default context limit for every model (200,000). */
  contextLimit?: number;
  overflowStyle?: OverflowStyle;
  minCacheableTokens?: number;
  /** Per-model overrides, by exact model name. */
  models?: Record<string, ModelLimits>;
  /** Bodies over this many bytes get 413 request_too_large (32 MB). */
  maxBodyBytes?: number;
  /** Assistant turns answered in order (a transcript's), before the default responder. */
  replay?: ScriptedTurn[];
  /** Random faults with a seed. */
  faults?: RandomFaults;
  /** The clock of the prompt cache (tests move it to expire entries). */
  now?: () => number;
}

export interface RecordedRequest {
  requestId: string;
  path: string;
  body: unknown;
  status: number;
  stream: boolean;
  /** Rejected by a rule about the request's shape (orphan tool results, empty content, …). */
  rejectedForShape: boolean;
  error?: string;
  fault?: Fault['kind'];
  usage?: WireUsage;
}

export interface Simulator {
  url: string;
  requests: RecordedRequest[];
  /** Queues assistant turns, answered before replay and the default. */
  script(...turns: ScriptedTurn[]): void;
  faults: ReturnType<typeof createFaultPlan>;
  clearCache(): void;
  close(): Promise<void>;
}

/** Starts a local server that speaks the Anthropic Messages API (see the README for every rule). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const scripted: ScriptedTurn[] = [];
  const replay = [...(options.replay ?? [])];
  const requests: RecordedRequest[] = [];
  const faults = createFaultPlan(options.faults);
  const cache = createPromptCache(options.now ?? Date.now);
  let counter = 0;
  let messageRequests = 0;

  const limitsFor = (model: string) => ({
    contextLimit: options.models?.[model]?.contextLimit ?? options.contextLimit ?? 200_000,
    overflowStyle: options.models?.[model]?.overflowStyle ?? options.overflowStyle ?? 'prompt_too_long',
    minCacheableTokens: options.models?.[model]?.minCacheableTokens ?? options.minCacheableTokens ?? 1024,
  });

  const server = createServer((request, response) => {
    const requestId = `req_sim_${(++counter).toString(16).padStart(8, '0')}`;
    response.setHeader('request-id', requestId);
    handle(request, response, requestId).catch((error: unknown) => {
      if (!response.headersSent) reply(response, requestId, apiError(500, `simulator failure: ${String(error)}`));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const record: RecordedRequest = { requestId, path, body: undefined, status: 200, stream: false, rejectedForShape: false };
    requests.push(record);
    const fail = (error: ApiError) => {
      record.status = error.status;
      record.error = error.message;
      record.rejectedForShape = error.shape === true;
      reply(response, requestId, error);
    };
    if (request.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) return fail(apiError(404, `Not found: ${request.method} ${path}`));
    const raw = await readBody(request, options.maxBodyBytes ?? 32 * 1024 * 1024);
    if (raw === undefined) return fail(apiError(413, 'Request exceeds the maximum allowed number of bytes.'));
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return fail(apiError(400, 'There was an issue with the request body: it is not valid JSON.'));
    }
    record.body = body;
    if (path === '/v1/messages/count_tokens') {
      const problem = validateRequest(body, { countOnly: true });
      if (problem) return fail(problem);
      return json(response, { input_tokens: countTokens(body as MessagesRequest) });
    }
    const messages = body as MessagesRequest;
    record.stream = messages?.stream === true;
    const fault = faults.pick(++messageRequests, messages);
    if (fault !== undefined) {
      record.fault = fault.kind;
      if (fault.kind === 'slow') await delay(fault.delayMs ?? 2000);
      else if (fault.kind === 'drop') return void request.socket.destroy();
      else if (fault.kind === 'rate_limit') return fail(apiError(429, 'Number of request tokens has exceeded your per-minute rate limit', { headers: { 'retry-after': String(fault.retryAfterSeconds ?? 1) } }));
      else if (fault.kind === 'overloaded') return fail(apiError(529, 'Overloaded'));
      else if (fault.kind === 'server_error' || (fault.kind === 'sse_error' && !record.stream)) return fail(apiError(500, 'Internal server error'));
    }
    const problem = validateRequest(body);
    if (problem) return fail(problem);
    const limits = limitsFor(messages.model);
    const prompt = countTokens(messages);
    const overflow = overflowError(prompt, messages.max_tokens, limits);
    if (overflow) return fail(overflow);
    const overflowStop = limits.overflowStyle === 'stop_reason' && prompt > limits.contextLimit;
    const turn: AssistantTurn = overflowStop ? { content: [], stop_reason: 'model_context_window_exceeded' } : nextTurn(messages);
    const cached = cache.apply(messages, limits.minCacheableTokens);
    const usage: WireUsage = {
      input_tokens: prompt - cached.read - cached.creation5m - cached.creation1h,
      output_tokens: outputTokens(turn),
      cache_creation_input_tokens: cached.creation5m + cached.creation1h,
      cache_read_input_tokens: cached.read,
      cache_creation: { ephemeral_5m_input_tokens: cached.creation5m, ephemeral_1h_input_tokens: cached.creation1h },
    };
    record.usage = usage;
    const id = `msg_sim_${requestId.slice(8)}`;
    if (record.stream) return streamMessage(response, { id, model: messages.model, turn, usage }, fault?.kind === 'sse_error' ? { type: 'overloaded_error', message: 'Overloaded' } : undefined);
    json(response, { id, type: 'message', role: 'assistant', model: messages.model, content: turn.content, stop_reason: turn.stop_reason, stop_sequence: null, usage });
  }

  function nextTurn(request: MessagesRequest): AssistantTurn {
    const next = scripted.shift() ?? replay.shift();
    return next === undefined ? defaultTurn(request) : toTurn(next);
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    requests,
    script: (...turns) => void scripted.push(...turns),
    faults,
    clearCache: () => cache.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function overflowError(prompt: number, maxTokens: number, limits: { contextLimit: number; overflowStyle: OverflowStyle }): ApiError | undefined {
  if (limits.overflowStyle === 'stop_reason') return undefined;
  if (limits.overflowStyle === 'input_plus_max_tokens' && prompt + maxTokens > limits.contextLimit) {
    return apiError(400, `input length and \`max_tokens\` exceed context limit: ${prompt} + ${maxTokens} > ${limits.contextLimit}, decrease input length or \`max_tokens\` and try again`);
  }
  return prompt > limits.contextLimit ? apiError(400, `prompt is too long: ${prompt} tokens > ${limits.contextLimit} maximum`) : undefined;
}

function outputTokens(turn: AssistantTurn): number {
  return Math.max(1, turn.content.reduce((sum, block) => sum + countTextTokens(block.text ?? JSON.stringify(block['input'] ?? block['thinking'] ?? '')), 0));
}

function reply(response: ServerResponse, requestId: string, error: ApiError): void {
  response.writeHead(error.status, { 'content-type': 'application/json', ...error.headers });
  response.end(errorBody(error, requestId));
}

function json(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(over ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
