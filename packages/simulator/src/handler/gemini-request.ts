import { apiError, type ApiError } from '../wire/api-error.js';
import type {
  GeminiContent,
  GeminiFunctionDeclaration,
  GeminiPart,
  GenerateContentRequest,
} from '../wire/gemini-wire.js';
import type { ContentBlock, MessagesRequest, ToolSpec, WireMessage } from '../wire/wire.js';

const ROLES = ['user', 'model'];

/**
 * The rules of `generateContent` the simulator enforces, in the Gemini API's
 * own words (the function-call pairing ones are shape rules: what a client must
 * never send). A model turn with function calls must follow a user turn, and
 * the turn after it must answer every call with a `functionResponse` part.
 */
export function validateGenerateContentRequest(body: unknown): ApiError | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return apiError(400, 'Invalid JSON payload received. Expected an object.');
  const contents = (body as Partial<GenerateContentRequest>).contents;
  if (!Array.isArray(contents) || contents.length === 0)
    return apiError(400, '* GenerateContentRequest.contents: contents is not specified\n', { shape: true });
  for (const [index, content] of contents.entries()) {
    const problem = validateContent(contents, content, index);
    if (problem) return problem;
  }
  return undefined;
}

function validateContent(contents: GeminiContent[], content: GeminiContent, index: number): ApiError | undefined {
  if (typeof content !== 'object' || content === null || !Array.isArray(content.parts))
    return apiError(400, `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`, {
      shape: true,
    });
  if (content.role !== undefined && !ROLES.includes(content.role))
    return apiError(400, 'Please use a valid role: user, model.', { shape: true });
  if (content.parts.length === 0)
    return apiError(400, `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`, {
      shape: true,
    });
  const calls = content.parts.filter((part) => part.functionCall !== undefined).length;
  if (calls === 0) return undefined;
  const previous = contents[index - 1];
  if (previous === undefined || (previous.role ?? 'user') !== 'user')
    return apiError(
      400,
      'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
      { shape: true },
    );
  const next = contents[index + 1];
  if (next === undefined) return undefined;
  const responses = next.parts.filter((part) => part.functionResponse !== undefined).length;
  if (responses !== calls)
    return apiError(
      400,
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      { shape: true },
    );
  return undefined;
}

/**
 * The same conversation as a Messages request, so the tokenizer, the cache and
 * the responders serve every endpoint: `systemInstruction` becomes `system`,
 * `model` turns assistant ones, thought parts thinking blocks, function calls
 * `tool_use` and function responses `tool_result` blocks (paired by id, else by
 * name), function declarations tools.
 */
export function geminiToMessagesRequest(model: string, request: GenerateContentRequest): MessagesRequest {
  const system = systemText(request.systemInstruction);
  const messages: WireMessage[] = request.contents.map((content) => ({
    role: content.role === 'model' ? 'assistant' : 'user',
    content: content.parts.flatMap(toBlocks),
  }));
  const tools = (request.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []).map(toToolSpec);
  return {
    model,
    max_tokens: request.generationConfig?.maxOutputTokens ?? 0,
    messages,
    ...(system.length === 0 ? {} : { system }),
    ...(tools.length === 0 ? {} : { tools }),
  };
}

function systemText(instruction: GenerateContentRequest['systemInstruction']): string {
  if (instruction === undefined) return '';
  if (typeof instruction === 'string') return instruction;
  return instruction.parts.map((part) => part.text ?? '').join('\n');
}

function toBlocks(part: GeminiPart): ContentBlock[] {
  if (part.functionCall !== undefined)
    return [
      {
        type: 'tool_use',
        id: part.functionCall.id ?? part.functionCall.name,
        name: part.functionCall.name,
        input: part.functionCall.args ?? {},
      },
    ];
  if (part.functionResponse !== undefined)
    return [
      {
        type: 'tool_result',
        tool_use_id: part.functionResponse.id ?? part.functionResponse.name,
        content: JSON.stringify(part.functionResponse.response ?? {}),
      },
    ];
  if (part.inlineData !== undefined) return [{ type: 'image', source: { type: 'base64', data: '' } }];
  if (part.fileData !== undefined) return [{ type: 'text', text: part.fileData.fileUri ?? '' }];
  if (typeof part.text !== 'string' || part.text.length === 0) return [];
  return part.thought === true ? [{ type: 'thinking', thinking: part.text }] : [{ type: 'text', text: part.text }];
}

function toToolSpec(declaration: GeminiFunctionDeclaration): ToolSpec {
  return {
    name: declaration.name,
    ...(declaration.description === undefined ? {} : { description: declaration.description }),
    input_schema: declaration.parametersJsonSchema ?? declaration.parameters ?? { type: 'object' },
  };
}
