/**
 * The request bodies of the four wire protocols ctxhost reads: Anthropic's
 * Messages API, OpenAI's Chat Completions and Responses, and Gemini's
 * generateContent. Unknown fields are allowed everywhere: a reader must carry
 * them, not drop them. The simulator serves these shapes; the gateway forwards them.
 */

export interface WireCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface ContentBlock {
  type: string;
  text?: string;
  cache_control?: WireCacheControl | null;
  [field: string]: unknown;
}

export interface WireMessage {
  role: string;
  content: string | ContentBlock[];
}

export interface ToolSpec {
  name: string;
  description?: string;
  input_schema?: unknown;
  cache_control?: WireCacheControl | null;
  [field: string]: unknown;
}

/** `POST /v1/messages`. */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: WireMessage[];
  system?: string | ContentBlock[];
  tools?: ToolSpec[];
  stream?: boolean;
  [field: string]: unknown;
}

export interface ChatContentPart {
  type: string;
  text?: string;
  image_url?: { url: string };
  [field: string]: unknown;
}

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: string;
  content?: string | ChatContentPart[] | null;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  name?: string;
  [field: string]: unknown;
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
}

/** `POST /v1/chat/completions`. */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
  [field: string]: unknown;
}

export interface ResponsesContentPart {
  type: string;
  text?: string;
  image_url?: string;
  [field: string]: unknown;
}

/**
 * One Responses input item: a message (`type: 'message'`, or no type with a
 * `role`), a tool call (`function_call`, `custom_tool_call`, `local_shell_call`),
 * a tool output (`function_call_output`, …), a `reasoning` item, or another
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

/** `POST /v1/responses`. */
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

export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response?: Record<string, unknown>;
}

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  inlineData?: { mimeType?: string; data?: string };
  fileData?: { mimeType?: string; fileUri?: string };
  [field: string]: unknown;
}

export interface GeminiContent {
  role?: string;
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: unknown;
  parametersJsonSchema?: unknown;
}

export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
  [field: string]: unknown;
}

/** `POST /v1beta/models/{model}:generateContent` (and `:streamGenerateContent`). */
export interface GenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent | string;
  tools?: GeminiTool[];
  generationConfig?: { maxOutputTokens?: number; [field: string]: unknown };
  [field: string]: unknown;
}
