import type { Exchange } from './exchange.js';
import { sendJson } from '../wire/http-io.js';
import { countTokens } from '../wire/tokenizer.js';
import { validateRequest } from './validate-request.js';
import { checkModel, checkVersionHeader } from './check-model.js';
import type { ResolvedOptions } from './simulator-options.js';
import type { MessagesRequest } from '../wire/wire.js';

/** `POST /v1/messages/count_tokens`: the same rules as a message (but no max_tokens), then `{ input_tokens }`. No window check, no faults. */
export function handleCountTokens(
  exchange: Exchange,
  options: Pick<ResolvedOptions, 'acceptAnyModel' | 'models'>,
): void {
  const problem =
    checkVersionHeader(exchange.record.headers) ??
    validateRequest(exchange.body, { countOnly: true }) ??
    checkModel((exchange.body as MessagesRequest).model, undefined, options);
  if (problem) return exchange.fail(problem);
  sendJson(exchange.response, { input_tokens: countTokens(exchange.body as MessagesRequest) });
}
