import type { ContextEngine, ContextEngineFactory } from './context-engine.js';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';

const registry = new Map<string, ContextEngineFactory>();

/** Makes an engine available by name to `context.engine`. A name registers once. */
export function registerContextEngine(name: string, factory: ContextEngineFactory): void {
  if (registry.has(name)) {
    throw new CtxhostError(
      CORE_ERROR_CODES.engineDuplicate,
      `a context engine named "${name}" is already registered; pick another name or unregister the first`,
    );
  }
  registry.set(name, factory);
}

/** Removes a registered engine (tests, hot reload). Returns whether it was there. */
export function unregisterContextEngine(name: string): boolean {
  return registry.delete(name);
}

export function registeredContextEngine(name: string): ContextEngineFactory | undefined {
  return registry.get(name);
}

export function registeredContextEngineNames(): string[] {
  return [...registry.keys()];
}

/** The engine used when no compressing engine is available: it never compresses, and says so in its report. */
export function createNoneEngine(): ContextEngine {
  return {
    name: 'none',
    shouldCompress: () => false,
    async compress(messages, context) {
      const tokens = context.counter.countAll(messages);
      return {
        messages: [...messages],
        report: {
          engine: 'none',
          reason: context.reason,
          tokensBefore: tokens,
          tokensAfter: tokens,
          messagesBefore: messages.length,
          messagesAfter: messages.length,
          notes: ['the "none" engine never compresses'],
        },
      };
    },
  };
}
