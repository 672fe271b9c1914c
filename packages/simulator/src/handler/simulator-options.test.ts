import { describe, expect, it } from 'vitest';
import { SIMULATOR_ERROR_CODES, SimulatorError } from '../errors.js';
import { limitsFor, resolveOptions, SIMULATOR_DEFAULTS, SimulatorOptionsSchema } from './simulator-options.js';

describe('simulator options', () => {
  it('parses undefined to the defaults object', () => {
    expect(SimulatorOptionsSchema.parse(undefined)).toEqual(SIMULATOR_DEFAULTS);
  });

  it.each([
    [{ contextLimt: 5 }, 'contextLimt'],
    [{ contextLimit: -1 }, 'contextLimit'],
    [{ overflowStyle: 'explode' }, 'overflowStyle'],
    [{ models: { m: { contextLimit: 0 } } }, 'models.m.contextLimit'],
    [{ faults: { probability: 2, seed: 1 } }, 'faults.probability'],
    [{ faults: { probability: 0.5, seed: 1, kinds: ['meteor'] } }, 'faults.kinds.0'],
  ])('rejects %j naming %s, with a stable code', (options, where) => {
    let caught: unknown;
    try {
      resolveOptions(options as never);
    } catch (error) {
      caught = error;
    }
    expect(SimulatorError.isInstance(caught)).toBe(true);
    expect((caught as SimulatorError).code).toBe(SIMULATOR_ERROR_CODES.optionsInvalid);
    expect((caught as SimulatorError).message).toContain(where);
  });

  it('takes a model’s own limits over the defaults', () => {
    const options = resolveOptions({
      contextLimit: 1000,
      models: { small: { contextLimit: 10, overflowStyle: 'stop_reason' } },
    });
    expect(limitsFor(options, 'small')).toEqual({
      contextLimit: 10,
      overflowStyle: 'stop_reason',
      minCacheableTokens: 1024,
    });
    expect(limitsFor(options, 'other')).toEqual({
      contextLimit: 1000,
      overflowStyle: 'prompt_too_long',
      minCacheableTokens: 1024,
    });
  });
});
