import { afterAll, beforeAll, vi } from 'vitest';

type EmitWarning = (warning: string | Error, options?: unknown, ...rest: unknown[]) => void;

/**
 * For a test file that uses deprecated options on purpose: ctxhost's deprecation warnings
 * (code CTXHOST_DEPRECATED, said once per process) are collected into the returned list instead of
 * printed, so the test log stays clean; every other warning is emitted as usual.
 */
export function collectDeprecations(): string[] {
  const said: string[] = [];
  beforeAll(() => {
    const emit = process.emitWarning.bind(process) as EmitWarning;
    const collect: EmitWarning = (warning, options, ...rest) => {
      if ((options as { code?: unknown } | undefined)?.code === 'CTXHOST_DEPRECATED') said.push(String(warning));
      else emit(warning, options, ...rest);
    };
    vi.spyOn(process, 'emitWarning').mockImplementation(collect);
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });
  return said;
}
