import { getModelInfo, largestStatedLimit } from '@ctxhost/core';
import { apiError, invalid, type ApiError } from '../wire/api-error.js';
import type { ResolvedOptions } from './simulator-options.js';

/** The version the SDK sends; the API refuses a request without the header. */
export const ANTHROPIC_VERSION_HEADER = 'anthropic-version';

/** The API refuses a request with no `anthropic-version` header before it reads the body. */
export function checkVersionHeader(headers: Readonly<Record<string, string>>): ApiError | undefined {
  const version = headers[ANTHROPIC_VERSION_HEADER];
  return version === undefined || version === ''
    ? invalid(`${ANTHROPIC_VERSION_HEADER}: header is required`, false)
    : undefined;
}

/**
 * What the API says about the model: a model it does not serve is a 404
 * `not_found_error` (`model: <name>`), and `max_tokens` above the model's output
 * limit a 400. Known models are the registry's Anthropic ones (`getModelInfo`,
 * any spelling) and those in `options.models`; `acceptAnyModel` lets any name through.
 * The output limit is the largest any source states (the registry's data and the
 * SDKs' own tables disagree: `@ai-sdk/anthropic` sends 128,000 for
 * claude-sonnet-4-6 where the data says 64,000), so what the real API may accept passes.
 */
export function checkModel(
  model: string,
  maxTokens: number | undefined,
  options: Pick<ResolvedOptions, 'acceptAnyModel' | 'models'>,
): ApiError | undefined {
  const info = getModelInfo(model);
  const known = info !== undefined && info.provider === 'anthropic';
  if (!known && options.acceptAnyModel !== true && !Object.hasOwn(options.models, model))
    return apiError(404, `model: ${model}`);
  const limit = known ? largestStatedLimit(info, 'maxOutputTokens') : undefined;
  if (limit !== undefined && maxTokens !== undefined && maxTokens > limit) {
    return invalid(
      `max_tokens: ${maxTokens} > ${limit}, which is the maximum allowed number of output tokens for ${model}`,
      false,
    );
  }
  return undefined;
}
