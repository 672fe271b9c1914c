import { defineConfigSection, readHookSection, type CtxhostConfig } from '@ctxhost/core';
import { z } from 'zod';
import type { ProtocolName } from './protocols/wire-protocol.js';

/** The gateway's defaults, read by the schema. */
export const GATEWAY_DEFAULTS = {
  maxBodyBytes: 32 * 1024 * 1024,
  maxConcurrentRequests: 256,
  shutdownGraceSeconds: 30,
} as const;

const url = () => z.url({ protocol: /^https?$/, error: 'an http(s) URL' });

const ModelSchema = z.strictObject({
  /** The window the gateway manages this model to (default: `models:` / the model registry). */
  context_window: z.number({ error: 'a whole number of tokens ≥ 1' }).int().min(1).optional(),
  /** Where this model's requests go (default: its protocol's upstream). */
  upstream: url().optional(),
});

/** `hooks.gateway` in the config file (snake_case, strict). */
export const GatewaySectionSchema = z.strictObject({
  /** Where every request goes unless a protocol or model says otherwise. */
  upstream: url().optional(),
  /** Per protocol: `anthropic`, `openai` (Chat Completions and Responses), `gemini`. */
  upstreams: z
    .strictObject({ anthropic: url().optional(), openai: url().optional(), gemini: url().optional() })
    .prefault({}),
  models: z.record(z.string().min(1), ModelSchema, { error: 'a mapping of model names' }).prefault({}),
  max_body_bytes: z
    .number({ error: 'a whole number of bytes ≥ 1' })
    .int()
    .min(1)
    .default(GATEWAY_DEFAULTS.maxBodyBytes),
  max_concurrent_requests: z
    .number({ error: 'a whole number ≥ 1' })
    .int()
    .min(1)
    .default(GATEWAY_DEFAULTS.maxConcurrentRequests),
  shutdown_grace_seconds: z
    .number({ error: 'a number of seconds ≥ 0' })
    .min(0)
    .default(GATEWAY_DEFAULTS.shutdownGraceSeconds),
});

export const gatewaySection = defineConfigSection({ key: 'gateway', schema: GatewaySectionSchema });
export type GatewaySection = z.output<typeof GatewaySectionSchema>;

/** The section as the gateway uses it. */
export interface GatewaySettings {
  upstreamFor(protocol: ProtocolName, model: string | undefined): string | undefined;
  contextWindowOf(model: string): number | undefined;
  maxBodyBytes: number;
  maxConcurrentRequests: number;
  shutdownGraceSeconds: number;
}

/** Reads `hooks.gateway` from a loaded config (a ConfigError names the key), `upstream` overriding the file's. */
export function gatewaySettings(config: Pick<CtxhostConfig, 'hooks'>, upstream?: string): GatewaySettings {
  const section = readHookSection(config, gatewaySection.key, GatewaySectionSchema);
  return settingsFrom(section, upstream);
}

export function settingsFrom(section: GatewaySection, upstream?: string): GatewaySettings {
  return {
    upstreamFor(protocol, model) {
      const family = protocol === 'anthropic' ? 'anthropic' : protocol === 'gemini' ? 'gemini' : 'openai';
      return (
        (model === undefined ? undefined : section.models[model]?.upstream) ??
        upstream ??
        section.upstreams[family] ??
        section.upstream
      );
    },
    contextWindowOf: (model) => section.models[model]?.context_window,
    maxBodyBytes: section.max_body_bytes,
    maxConcurrentRequests: section.max_concurrent_requests,
    shutdownGraceSeconds: section.shutdown_grace_seconds,
  };
}
