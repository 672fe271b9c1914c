import { describe, expect, it } from 'vitest';
import { GATEWAY_DEFAULTS, GatewaySectionSchema, gatewaySettings, settingsFrom } from './gateway-config.js';

const ANTHROPIC = 'https://anthropic.example';
const OPENAI = 'https://openai.example';
const EVERY = 'https://every.example';
const MODEL_OWN = 'https://model.example';
const FLAG = 'https://flag.example';

describe('hooks.gateway', () => {
  it('parses an empty section to the defaults object', () => {
    const settings = settingsFrom(GatewaySectionSchema.parse({}));
    expect({
      maxBodyBytes: settings.maxBodyBytes,
      maxConcurrentRequests: settings.maxConcurrentRequests,
      shutdownGraceSeconds: settings.shutdownGraceSeconds,
    }).toStrictEqual(GATEWAY_DEFAULTS);
    expect(settings.upstreamFor('anthropic', 'claude-sonnet-4-6')).toBeUndefined();
  });

  it('routes a model to its own upstream, then --upstream, then its protocol family, then upstream', () => {
    const section = GatewaySectionSchema.parse({
      upstream: EVERY,
      upstreams: { anthropic: ANTHROPIC, openai: OPENAI },
      models: { 'claude-opus-4-1': { upstream: MODEL_OWN, context_window: 90_000 } },
    });
    const fromFile = settingsFrom(section);
    expect(fromFile.upstreamFor('anthropic', 'claude-opus-4-1')).toBe(MODEL_OWN);
    expect(fromFile.upstreamFor('anthropic', 'claude-sonnet-4-6')).toBe(ANTHROPIC);
    expect(fromFile.upstreamFor('openai-chat', 'gpt-5')).toBe(OPENAI);
    expect(fromFile.upstreamFor('openai-responses', undefined)).toBe(OPENAI);
    expect(fromFile.upstreamFor('gemini', 'gemini-2.5-flash')).toBe(EVERY);
    expect(fromFile.contextWindowOf('claude-opus-4-1')).toBe(90_000);
    expect(fromFile.contextWindowOf('gpt-5')).toBeUndefined();

    const withFlag = settingsFrom(section, FLAG);
    expect(withFlag.upstreamFor('anthropic', 'claude-opus-4-1')).toBe(MODEL_OWN);
    expect(withFlag.upstreamFor('gemini', 'gemini-2.5-flash')).toBe(FLAG);
  });

  it('refuses a misspelt key, an upstream that is not http(s) and a limit under 1, naming each key', () => {
    const result = GatewaySectionSchema.safeParse({
      upstreams: { antropic: ANTHROPIC },
      upstream: 'ftp://example',
      max_body_bytes: 0,
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.')).sort();
    expect(paths).toStrictEqual(['max_body_bytes', 'upstream', 'upstreams']);
  });

  it('reads the section from a loaded config, naming the key of a bad value', () => {
    const settings = gatewaySettings({ hooks: { gateway: { max_concurrent_requests: 4 } } }, FLAG);
    expect(settings.maxConcurrentRequests).toBe(4);
    expect(settings.upstreamFor('openai-chat', 'gpt-5')).toBe(FLAG);
    expect(() => gatewaySettings({ hooks: { gateway: { max_concurrent_requests: 'many' } } })).toThrow(
      /hooks\.gateway\.max_concurrent_requests/,
    );
  });
});
