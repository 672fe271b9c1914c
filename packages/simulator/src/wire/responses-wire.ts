/** The Responses API shapes the simulator reads and writes (OpenAI's JSON for `POST /v1/responses`); the request's live in core. */
export type { ResponsesContentPart, ResponsesInputItem, ResponsesTool, ResponsesRequest } from '@ctxhost/core';

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** One output item the simulator answers with. */
export type ResponsesOutputItem =
  | {
      type: 'message';
      id: string;
      status: 'completed';
      role: 'assistant';
      content: { type: 'output_text'; text: string; annotations: never[]; logprobs: never[] }[];
    }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: 'completed' }
  | { type: 'custom_tool_call'; id: string; call_id: string; name: string; input: string; status: 'completed' }
  | {
      type: 'reasoning';
      id: string;
      summary: { type: 'summary_text'; text: string }[];
      encrypted_content?: string;
    }
  | { type: 'compaction'; id: string; encrypted_content: string };
