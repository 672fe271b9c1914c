import { ContextWindowStop } from '@ctxhost/core';
import { AIMessage } from '@langchain/core/messages';
import { toolCallsOf } from './from-langchain-message.js';

/**
 * A reply that is an overflow in a 200: newer Anthropic models stop with `model_context_window_exceeded`
 * and no content (`response_metadata.stop_reason` in `ChatAnthropic`'s message). Thrown as core's
 * `ContextWindowStop` so the recovery treats it as the overflow it is; when the recovery cannot help,
 * the agent gets the reply as the model gave it.
 */
export function throwOnWindowStop<T>(response: T): T {
  if (
    AIMessage.isInstance(response) &&
    response.response_metadata?.['stop_reason'] === 'model_context_window_exceeded' &&
    response.text === '' &&
    toolCallsOf(response).length === 0
  )
    throw new ContextWindowStop(response, response.usage_metadata?.input_tokens);
  return response;
}
