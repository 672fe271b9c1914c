import { apiError } from '../wire/api-error.js';
import { contextLimitError, exceedsWindowSilently } from './context-limit.js';
import { applyFault, type createFaultPlan } from './faults.js';
import { createContextEditingFeature } from '../features/context-editing.js';
import { validateContextManagement } from '../features/context-management.js';
import { activeFeatures, type FeatureContext, type SimulatorFeature } from '../features/features.js';
import type { Exchange } from './exchange.js';
import { sendJson } from '../wire/http-io.js';
import type { createPromptCache } from '../features/prompt-cache.js';
import { defaultTurn } from '../responders/default.js';
import type { createTurnQueue } from '../responders/scripted.js';
import { limitsFor, type ResolvedOptions } from './simulator-options.js';
import { createServerCompactionFeature } from '../features/server-compaction.js';
import {
  createOnDemandCompactionFeature,
  isCompactionRequest,
  ON_DEMAND_COMPACTION_BETA,
  validateCompactionField,
} from '../features/on-demand-compaction.js';
import { streamMessage } from '../wire/sse.js';
import { countTokens } from '../wire/tokenizer.js';
import { buildUsage } from './usage.js';
import { validateRequest } from './validate-request.js';
import { checkModel, checkVersionHeader } from './check-model.js';
import type { AssistantTurn, MessagesRequest, WireUsage } from '../wire/wire.js';

interface Dependencies {
  options: ResolvedOptions;
  faults: ReturnType<typeof createFaultPlan>;
  cache: ReturnType<typeof createPromptCache>;
  turns: ReturnType<typeof createTurnQueue>;
  /** Model requests so far, shared with /v1/chat/completions so `faults.at(k)` counts both. */
  nextRequestNumber: () => number;
}

/**
 * `POST /v1/messages`, in the API's order: faults, validation, server-side
 * features, the window check, prompt caching, then the answer (JSON or SSE).
 */
export function createMessagesHandler({ options, faults, cache, turns, nextRequestNumber }: Dependencies) {
  const configured = options.features ?? builtInFeatures();

  return async function handleMessages(exchange: Exchange): Promise<void> {
    const { record, requestId } = exchange;
    const received = exchange.body as MessagesRequest;
    record.stream = received?.stream === true;
    const fault = faults.pick(nextRequestNumber(), received);
    if (fault !== undefined) {
      record.fault = fault.kind;
      const handled = await applyFault(fault, exchange, record.stream);
      if (handled) return;
    }
    const features = activeFeatures(configured, new Set(record.betas));
    const problem =
      checkVersionHeader(record.headers) ??
      validateRequest(exchange.body, { extraBlockTypes: features.flatMap((feature) => feature.blockTypes ?? []) }) ??
      checkModel(received.model, received.max_tokens, options) ??
      validateContextManagement(received, features) ??
      validateCompactionField(
        received,
        features.some((feature) => feature.beta === ON_DEMAND_COMPACTION_BETA),
      );
    if (problem) return exchange.fail(problem);
    const limits = limitsFor(options, received.model);
    const context: FeatureContext = {
      requestId,
      model: received.model,
      betas: new Set(record.betas),
      limits,
      response: {},
      state: new Map(),
    };
    const request = features.reduce(
      (current, feature) => feature.prepareRequest?.(current, context) ?? current,
      received,
    );
    const promptTokens = countTokens(request);
    const overflow = contextLimitError(promptTokens, request.max_tokens, limits);
    if (overflow && record.stream && limits.overflowStyle === 'stream_error') {
      record.error = overflow.message;
      return streamMessage(exchange.response, overflowedMessage(requestId, request.model), overflow);
    }
    if (overflow) return exchange.fail(overflow);
    const answered = isCompactionRequest(request)
      ? { content: [], stop_reason: 'compaction' }
      : exceedsWindowSilently(promptTokens, limits)
        ? { content: [], stop_reason: 'model_context_window_exceeded' }
        : answer(request);
    const turn = finish(features, answered, context);
    const warm = options.warmCache?.(request) ?? 0;
    if (warm > 0) cache.warm(request, warm);
    const usage = finishUsage(
      features,
      buildUsage(promptTokens, cache.apply(request, limits.minCacheableTokens), turn),
      context,
    );
    record.usage = usage;
    record.stopReason = turn.stop_reason;
    const id = `msg_sim_${requestId.slice('req_sim_'.length)}`;
    const message = { id, model: request.model, turn, usage, extra: context.response };
    if (record.stream)
      return streamMessage(
        exchange.response,
        message,
        fault?.kind === 'sse_error' ? apiError(529, 'Overloaded') : undefined,
        fault?.kind === 'slow' && fault.midStream === true ? (fault.delayMs ?? 2000) : undefined,
      );
    sendJson(exchange.response, {
      id,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: turn.content,
      stop_reason: turn.stop_reason,
      stop_sequence: null,
      usage,
      ...context.response,
    });
  };

  function answer(request: MessagesRequest): AssistantTurn {
    return turns.next(request) ?? defaultTurn(request, { toolUse: options.defaultToolUse });
  }
}

/** The stream a `stream_error` model opens before it finds the prompt over its window (the error follows `message_start`). */
function overflowedMessage(requestId: string, model: string) {
  return {
    id: `msg_sim_${requestId.slice('req_sim_'.length)}`,
    model,
    turn: { content: [], stop_reason: 'end_turn' },
    usage: {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    },
  };
}

function finishUsage(features: SimulatorFeature[], usage: WireUsage, context: FeatureContext): WireUsage {
  return features.reduce((current, feature) => feature.finishUsage?.(current, context) ?? current, usage);
}

/** The server-side features a simulator has unless `options.features` replaces them; each is off until its beta is sent. */
export function builtInFeatures(): SimulatorFeature[] {
  return [createContextEditingFeature(), createServerCompactionFeature(), createOnDemandCompactionFeature()];
}

function finish(features: SimulatorFeature[], turn: AssistantTurn, context: FeatureContext): AssistantTurn {
  return features.reduce((current, feature) => feature.finishTurn?.(current, context) ?? current, turn);
}
