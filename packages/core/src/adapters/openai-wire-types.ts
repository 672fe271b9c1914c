/** OpenAI chat-completions message shapes, as plain types (core does not depend on the openai SDK). */
export type OpenAITextPart = { type: 'text'; text: string };
export type OpenAIImagePart = { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };
export type OpenAIUserPart = OpenAITextPart | OpenAIImagePart;

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAIMessage =
  | { role: 'system' | 'developer'; content: string | OpenAITextPart[]; name?: string }
  | { role: 'user'; content: string | OpenAIUserPart[]; name?: string }
  | { role: 'assistant'; content?: string | OpenAITextPart[] | null; tool_calls?: OpenAIToolCall[]; name?: string }
  | { role: 'tool'; content: string | OpenAITextPart[]; tool_call_id: string };
