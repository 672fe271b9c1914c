/**
 * A prompt as a framework holds it: a head it keeps apart (the Agents SDK's instructions, LangChain's
 * system message) followed by its list of messages. The prompt is `head` then `list`; neither is copied
 * into one array (a copy of a 100k list on every call would cost more than ctxhost's own work on it).
 */
export interface HeadedPrompt<S> {
  readonly head: readonly S[];
  readonly list: readonly S[];
}

const NO_HEAD: readonly never[] = [];

/** A prompt given as one array or as a head and a list, as a head and a list (an array is a list with no head). */
export function headedPrompt<S>(prompt: readonly S[] | HeadedPrompt<S>): HeadedPrompt<S> {
  return isHeaded(prompt) ? prompt : { head: NO_HEAD, list: prompt };
}

function isHeaded<S>(prompt: readonly S[] | HeadedPrompt<S>): prompt is HeadedPrompt<S> {
  return !Array.isArray(prompt);
}
