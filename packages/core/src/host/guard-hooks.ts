import type { Tap } from 'tapable';
import type { HookFailedEvent, HostHookKey, HostHooks } from './host-hooks.js';

type Report = (failure: HookFailedEvent) => void;
/** Waterfalls pass their input on when a tap fails (tapable's classes cannot be told apart with instanceof). */
const WATERFALL_HOOKS: ReadonlySet<HostHookKey> = new Set(['beforeRequest', 'toolResult']);

type AnyFunction = (...args: unknown[]) => unknown;
type GuardedTap = Tap & { type: string; fn: AnyFunction };
interface InterceptableHook {
  intercept(interceptor: { register: (tap: GuardedTap) => GuardedTap }): void;
}

/**
 * Wraps every tap, as it registers, so a tap that throws or rejects is
 * reported (`hook.failed`) instead of breaking the session. A failing
 * waterfall tap passes its input through unchanged; any other failing tap
 * counts as having returned nothing, so the next taps still run.
 */
export function guardHooks(hooks: HostHooks, report: Report): void {
  for (const key of Object.keys(hooks) as HostHookKey[]) {
    // The table's hooks differ only in payload types; interception is payload-agnostic.
    const hook = hooks[key] as unknown as InterceptableHook;
    const passThrough = WATERFALL_HOOKS.has(key);
    hook.intercept({
      register: (tap) => ({ ...tap, fn: guardTap(key, tap, passThrough, report) }),
    });
  }
}

function guardTap(hook: HostHookKey, tap: GuardedTap, passThrough: boolean, report: Report): AnyFunction {
  const failed = (args: unknown[], error: unknown): unknown => {
    const sessionId = sessionIdOf(args[0]);
    if (hook !== 'hookFailed')
      report({ hook, plugin: tap.name, error, ...(sessionId === undefined ? {} : { sessionId }) });
    return passThrough ? args[0] : undefined;
  };
  const fn = tap.fn;
  if (tap.type === 'promise') {
    return (...args: unknown[]) => {
      try {
        return Promise.resolve(fn(...args)).catch((error: unknown) => failed(args, error));
      } catch (error) {
        return Promise.resolve(failed(args, error));
      }
    };
  }
  if (tap.type === 'async') {
    return (...args: unknown[]) => {
      const callback = args.pop() as (error: unknown, result?: unknown) => void;
      try {
        fn(...args, (error: unknown, result?: unknown) =>
          error ? callback(null, failed(args, error)) : callback(null, result),
        );
      } catch (error) {
        callback(null, failed(args, error));
      }
    };
  }
  return (...args: unknown[]) => {
    try {
      return fn(...args);
    } catch (error) {
      return failed(args, error);
    }
  };
}

function sessionIdOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const sessionId = (payload as { sessionId?: unknown }).sessionId;
  return typeof sessionId === 'string' ? sessionId : undefined;
}
