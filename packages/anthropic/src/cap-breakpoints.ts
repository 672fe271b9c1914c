import type Anthropic from '@anthropic-ai/sdk';

/** The API takes at most four `cache_control` blocks per request. */
const MAX_BREAKPOINTS = 4;

type Params = Anthropic.MessageCreateParams;

/**
 * The caller's own breakpoints (tools, system) and the projection's may add up to more than the API
 * takes: the tools' and the system's stay, and of the messages' the latest ones (the prefix the next
 * request reads) up to the limit.
 */
export function capBreakpoints<T extends Params>(params: T): T {
  const fixed = countIn(params.tools) + countIn(params.system);
  if (fixed + countIn(params.messages) <= MAX_BREAKPOINTS) return params;
  let room = Math.max(0, MAX_BREAKPOINTS - fixed);
  const messages = params.messages
    .toReversed()
    .map((param) => {
      if (typeof param.content === 'string') return param;
      const content = param.content.toReversed().map((block) => {
        if (!hasBreakpoint(block)) return block;
        if (room > 0) {
          room--;
          return block;
        }
        const { cache_control: _dropped, ...rest } = block as typeof block & { cache_control?: unknown };
        return rest;
      });
      return { ...param, content: content.toReversed() };
    })
    .toReversed();
  return { ...params, messages };
}

function countIn(value: unknown): number {
  if (!Array.isArray(value)) return 0;
  let count = 0;
  for (const item of value as unknown[]) {
    if (hasBreakpoint(item)) count++;
    const content = (item as { content?: unknown }).content;
    if (Array.isArray(content)) count += countIn(content);
  }
  return count;
}

function hasBreakpoint(value: unknown): boolean {
  const marker = (value as { cache_control?: unknown } | null)?.cache_control;
  return marker !== undefined && marker !== null;
}
