import { CtxhostError, type CtxhostErrorOptions } from '@ctxhost/core';

/** Stable codes of @ctxhost/prompt-caching's errors. */
export const PROMPT_CACHING_ERROR_CODES = {
  ttlInvalid: 'CTXHOST_CACHE_TTL_INVALID',
  pricingUnknownModel: 'CTXHOST_PRICING_UNKNOWN_MODEL',
  usageInvalid: 'CTXHOST_USAGE_INVALID',
} as const;

export type PromptCachingErrorCode = (typeof PROMPT_CACHING_ERROR_CODES)[keyof typeof PROMPT_CACHING_ERROR_CODES];

const PROMPT_CACHING_ERROR = Symbol.for('ctxhost.prompt-caching.error');

/** Base class of this package's errors; `isInstance` works across bundled copies. */
export class PromptCachingError extends CtxhostError {
  readonly [PROMPT_CACHING_ERROR] = true;

  constructor(code: PromptCachingErrorCode, message: string, options: CtxhostErrorOptions = {}) {
    super(code, message, { plugin: 'prompt-caching', ...options });
  }

  static override isInstance(value: unknown): value is PromptCachingError {
    return (
      CtxhostError.isInstance(value) &&
      (value as unknown as { [PROMPT_CACHING_ERROR]?: unknown })[PROMPT_CACHING_ERROR] === true
    );
  }
}

/** A cache TTL other than "5m" or "1h" was passed in code (the config file is checked by core). */
export class CacheTtlError extends PromptCachingError {
  constructor(ttl: unknown) {
    super(
      PROMPT_CACHING_ERROR_CODES.ttlInvalid,
      `prompt caching: cache TTL must be "5m" or "1h", got ${JSON.stringify(ttl) ?? String(ttl)}; ` +
        'set prompt_caching.cache_ttl (or the ttl option) to one of them',
    );
  }
}

/** Cost accounting was asked about a model the pricing table does not list. */
export class UnknownModelPricingError extends PromptCachingError {
  readonly model: string;

  constructor(model: string) {
    super(
      PROMPT_CACHING_ERROR_CODES.pricingUnknownModel,
      `prompt caching: no price for model "${model}": the model registry has none; ` +
        `add models.${model}.pricing (input, output) or hooks.prompt-caching.pricing.${model} (input_per_mtok, output_per_mtok) to the config`,
    );
    this.model = model;
  }
}

/** A usage record with a negative, fractional or non-numeric token count. */
export class UsageInvalidError extends PromptCachingError {
  constructor(where: string, field: string, value: unknown) {
    super(
      PROMPT_CACHING_ERROR_CODES.usageInvalid,
      `prompt caching: ${where}.${field} must be a whole number of tokens >= 0, got ${JSON.stringify(value) ?? String(value)}; ` +
        'pass the usage the provider reported',
    );
  }
}
