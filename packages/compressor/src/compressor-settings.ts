import { CompressionSectionSchema, DEFAULT_CONFIG, type CtxhostConfig } from '@ctxhost/core';
import { COMPRESSOR_ERROR_CODES, CompressorError } from './errors.js';

export type CompressorSettings = CtxhostConfig['compression'];

const snake = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const camel = (key: string) => key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * `createCompressor`'s `compression` options, checked by the very schema that
 * checks `compression` in the config file (so a `targetRatio` the file rejects
 * is rejected here too), with the file's defaults for what is not given.
 */
export function compressorSettings(options: Partial<CompressorSettings> | undefined): CompressorSettings {
  const fileShaped = Object.fromEntries(
    Object.entries(options ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [snake(key), value]),
  );
  const parsed = CompressionSectionSchema.safeParse(fileShaped);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const path = issue.path.map((key) => camel(String(key))).join('.');
      const keys =
        'keys' in issue && Array.isArray(issue.keys)
          ? ` (${issue.keys.map((key) => camel(String(key))).join(', ')}; allowed: ${Object.keys(DEFAULT_CONFIG.compression).join(', ')})`
          : '';
      return `compression${path ? `.${path}` : ''}: ${issue.message}${keys}`;
    });
    throw new CompressorError(
      COMPRESSOR_ERROR_CODES.optionsInvalid,
      `createCompressor: invalid options; fix them and retry:\n  ${problems.join('\n  ')}`,
    );
  }
  const file = parsed.data;
  return {
    enabled: file.enabled,
    threshold: file.threshold,
    targetRatio: file.target_ratio,
    protectLastN: file.protect_last_n,
    summarizerCooldownCompactions: file.summarizer_cooldown_compactions,
    summarizerCooldownMinutes: file.summarizer_cooldown_minutes,
    background: file.background,
    billPolicy: file.bill_policy,
  };
}
