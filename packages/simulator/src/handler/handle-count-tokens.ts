import type { Exchange } from './exchange.js';
import { sendJson } from '../wire/http-io.js';
import { countTokens } from '../wire/tokenizer.js';
import { validateRequest } from './validate-request.js';
import type { MessagesRequest } from '../wire/wire.js';

/** `POST /v1/messages/count_tokens`: the same rules as a message (but no max_tokens), then `{ input_tokens }`. No window check, no faults. */
export function handleCountTokens(exchange: Exchange): void {
  const problem = validateRequest(exchange.body, { countOnly: true });
  if (problem) return exchange.fail(problem);
  sendJson(exchange.response, { input_tokens: countTokens(exchange.body as MessagesRequest) });
}
