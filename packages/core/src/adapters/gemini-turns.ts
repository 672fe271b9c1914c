import type {
  ContentBlock,
  GeminiFunctionDeclaration,
  GeminiPart,
  GenerateContentRequest,
  ToolSpec,
} from './wire-request-types.js';
import type { WireTurns } from './wire-turns.js';

/**
 * A generateContent request as a Messages request, one message per content:
 * `systemInstruction` becomes `system`, `model` turns assistant ones, thought
 * parts thinking blocks, function calls `tool_use` and function responses
 * `tool_result` blocks (paired by id, else by name), function declarations tools.
 */
export function readGenerateContentRequest(model: string, request: GenerateContentRequest): WireTurns {
  const system = systemText(request.systemInstruction);
  const messages = request.contents.map((content) => ({
    role: content.role === 'model' ? 'assistant' : 'user',
    content: content.parts.flatMap(toBlocks),
  }));
  const tools = (request.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []).map(toToolSpec);
  return {
    request: {
      model,
      max_tokens: request.generationConfig?.maxOutputTokens ?? 0,
      messages,
      ...(system.length === 0 ? {} : { system }),
      ...(tools.length === 0 ? {} : { tools }),
    },
    sources: messages.map((_, index) => [index]),
    systemSources: [],
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
