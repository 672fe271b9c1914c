import { compressorEngineFactory } from '@ctxhost/compressor';
import { withDefaults, type Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { NativeCompactionConfigSchema } from './config-schema.js';
import { NATIVE_ENGINE } from './native-compaction-engine.js';
import type { NativeCompactor } from './native-compactor.js';
import { nativeEngineFromConfig } from './native-engine-from-config.js';

const compactor: NativeCompactor = {
  vendor: 'openai',
  model: 'gpt-5.2',
  compact: (_span: readonly Message[]) => Promise.reject(new Error('not called here')),
};
const fallback = compressorEngineFactory({ config: withDefaults({}) });

describe('nativeEngineFromConfig', () => {
  it('is the fallback itself while the vendor’s mechanism is off, the native engine with its trigger when on', () => {
    expect(nativeEngineFromConfig(NativeCompactionConfigSchema.parse({}), compactor, fallback)).toBe(fallback);
    const engine = nativeEngineFromConfig(
      NativeCompactionConfigSchema.parse({ openai: { standalone: { enabled: true, trigger: 0.5 } } }),
      compactor,
      fallback,
    );
    expect(engine.name).toBe(NATIVE_ENGINE);
    const state = { sessionId: 's', tokenSource: 'reported' as const, contextWindow: 100_000, messageCount: 4 };
    expect(engine.shouldCompress({ ...state, promptTokens: 49_000 })).toBe(false);
    expect(engine.shouldCompress({ ...state, promptTokens: 50_000 })).toBe(true);
  });
});
