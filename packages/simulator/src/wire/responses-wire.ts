/** The Responses API shapes the simulator reads and writes (OpenAI's JSON for `POST /v1/responses`). */
export interface ResponsesContentPart {
  type: string;
  text?: string;
  image_url?: string;
  [field: string]: unknown;
}

/**
 * One input item: a message (`type: 'message'`, or no type with a `role`),
 * a tool call (`function_call`, `custom_tool_call`, `local_shell_call`), a
 * tool output (`function_call_output`, …), a `reasoning` item, or another
 * item the model sent back.
 */
export interface ResponsesInputItem {
  type?: string;
  role?: string;
  content?: string | ResponsesContentPart[] | null;
  call_id?: string;
  name?: string;
  arguments?: string;
  input?: string;
  output?: string | ResponsesContentPart[];
  summary?: { type: string; text: string }[];
  [field: string]: unknown;
}

/** A tool: `function` (JSON arguments), `custom` (free-form text input) or a hosted one (`web_search`, …). */
export interface ResponsesTool {
  type: string;
  name?: string;
  description?: string;
  parameters?: unknown;
  [field: string]: unknown;
}

export interface ResponsesRequest {
  model: string;
  input?: string | ResponsesInputItem[];
  instructions?: string | null;
  tools?: ResponsesTool[];
  max_output_tokens?: number | null;
  stream?: boolean | null;
  include?: string[] | null;
  previous_response_id?: string | null;
  [field: string]: unknown;
}

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
