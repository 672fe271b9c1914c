import type Anthropic from '@anthropic-ai/sdk';
import { nativeFieldsOf, toAnthropic, type Message, type StatelessTurn } from '@ctxhost/core';
import { COMPACTION_BETA, ON_DEMAND_COMPACTION_BETA } from '@ctxhost/native-compaction';
import type { AnthropicPromptItem } from './anthropic-prompt.js';
import { capBreakpoints } from './cap-breakpoints.js';
import { renderMessages } from './render-messages.js';

type Params = Anthropic.MessageCreateParams;

/** What goes to the SDK for one attempt: the params and the request options (the beta header). */
export interface ProjectedCall<T extends Params> {
  params: T;
  requestOptions: Anthropic.RequestOptions | undefined;
}

/**
 * The caller's params with the projection in place of `system` and `messages` (the caller's own params
 * where the hooks left them, core's Anthropic adapter for the rest; cache breakpoints where the
 * prompt-caching hook put them, at most four in all),
 * and Anthropic's context management where the request hooks asked for it: `context_management` in the
 * body and its betas in the `anthropic-beta` header (the caller's own `context_management` wins). A
 * projection that sends a compaction block carries on-demand compaction's beta when no compaction beta is named.
 * `messages` undefined: the caller's params as they came.
 */
export function projectedCall<T extends Params>(
  params: T,
  requestOptions: Anthropic.RequestOptions | undefined,
  turn: Pick<StatelessTurn<AnthropicPromptItem, unknown>, 'originals' | 'providerOptions'>,
  messages: readonly Message[] | undefined,
): ProjectedCall<T> {
  if (messages === undefined) return { params, requestOptions };
  let head = 0;
  while (messages[head]?.role === 'system') head++;
  const system = head === 0 ? undefined : toAnthropic(messages.slice(0, head)).system;
  const rendered = renderMessages(messages, head, turn.originals);
  const { system: _system, ...rest } = params;
  let next = {
    ...rest,
    messages: rendered.params,
    ...(system === undefined ? {} : { system }),
  } as T;
  const betas: string[] = [];
  const fields = nativeFieldsOf(turn.providerOptions);
  const own = (params as { context_management?: unknown }).context_management;
  if (fields?.vendor === 'anthropic' && own === undefined) {
    next = { ...next, context_management: fields.contextManagement };
    betas.push(...fields.betas);
  }
  const named = [...betasOf(requestOptions), ...betas];
  if (!named.some((beta) => beta === COMPACTION_BETA || beta === ON_DEMAND_COMPACTION_BETA) && rendered.sendsCompaction)
    betas.push(ON_DEMAND_COMPACTION_BETA);
  return { params: capBreakpoints(next), requestOptions: withBetas(requestOptions, betas) };
}

/** The betas the caller's own `anthropic-beta` header names. */
function betasOf(requestOptions: Anthropic.RequestOptions | undefined): string[] {
  return headerEntries(requestOptions?.headers)
    .filter(([name]) => name.toLowerCase() === 'anthropic-beta')
    .flatMap(([, value]) => value.split(','))
    .map((beta) => beta.trim())
    .filter((beta) => beta !== '');
}

/** The caller's headers as name/value pairs (a `Headers`, a list of pairs, or a record whose null values unset). */
function headerEntries(headers: Anthropic.RequestOptions['headers']): [string, string][] {
  if (headers === undefined || headers === null) return [];
  if (headers instanceof Headers) return [...headers.entries()];
  const pairs: readonly (readonly unknown[])[] = Array.isArray(headers)
    ? (headers as readonly (readonly unknown[])[])
    : Object.entries(headers as Record<string, unknown>);
  return pairs.flatMap(([name, value]) =>
    value === null || value === undefined
      ? []
      : (Array.isArray(value) ? value : [value]).map((one): [string, string] => [String(name), String(one)]),
  );
}

/** The request options with `betas` added to the caller's `anthropic-beta` header. */
function withBetas(
  requestOptions: Anthropic.RequestOptions | undefined,
  betas: readonly string[],
): Anthropic.RequestOptions | undefined {
  const own = betasOf(requestOptions);
  const added = betas.filter((beta, index) => !own.includes(beta) && betas.indexOf(beta) === index);
  if (added.length === 0) return requestOptions;
  const headers = new Headers();
  for (const [name, value] of headerEntries(requestOptions?.headers))
    if (name.toLowerCase() !== 'anthropic-beta') headers.append(name, value);
  headers.set('anthropic-beta', [...own, ...added].join(','));
  return { ...requestOptions, headers };
}
