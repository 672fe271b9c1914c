import { NativeCompactionConfigSchema } from '@ctxhost/native-compaction';
import { describe, expect, it } from 'vitest';
import { createNativeChatParams } from './native-chat-params.js';

type Input = Parameters<ReturnType<typeof createNativeChatParams>['apply']>[0];
type Output = Parameters<ReturnType<typeof createNativeChatParams>['apply']>[1];

const config = NativeCompactionConfigSchema.parse({
  anthropic: { clear_thinking: { enabled: true }, compaction: { enabled: true, trigger_tokens: 60_000 } },
  openai: { inline: { enabled: true } },
  client_fallback_threshold: 0.9,
});

function request(sessionID: string, providerID: string, id: string, npm: string): Input {
  return { sessionID, model: { providerID, api: { id, npm, url: '' } } } as Input;
}
const output = (options: Record<string, unknown> = {}): Output => ({
  temperature: 0,
  topP: 1,
  topK: 0,
  maxOutputTokens: undefined,
  options,
});

function capture() {
  const warnings: string[] = [];
  const log = () => undefined;
  return {
    warnings,
    logger: { debug: log, info: log, error: log, warn: (message: string) => void warnings.push(message) },
  };
}

describe('createNativeChatParams', () => {
  it("puts the edits in @ai-sdk/anthropic's spelling into a Claude request, and the client then waits for the server", () => {
    const { logger } = capture();
    const native = createNativeChatParams(config, logger);
    const params = output({ toolStreaming: false });
    native.apply(request('s1', 'anthropic', 'claude-sonnet-4-5', '@ai-sdk/anthropic'), params);
    expect(params.options).toEqual({
      toolStreaming: false,
      contextManagement: {
        edits: [
          { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 1 } },
          { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 60_000 } },
        ],
      },
    });
    expect(native.clientFloor('s1')).toBe(0.9);
    expect(native.clientFloor('s2')).toBeUndefined();
  });

  it("leaves the user's own contextManagement as it is", () => {
    const native = createNativeChatParams(config, capture().logger);
    const own = { edits: [{ type: 'clear_tool_uses_20250919' }] };
    const params = output({ contextManagement: own });
    native.apply(request('s1', 'anthropic', 'claude-sonnet-4-5', '@ai-sdk/anthropic'), params);
    expect(params.options['contextManagement']).toBe(own);
  });

  it('sends nothing where the edits cannot ride, says so once per model, and the client compacts as usual there', () => {
    const { logger, warnings } = capture();
    const native = createNativeChatParams(config, logger);
    native.apply(request('s1', 'anthropic', 'claude-sonnet-4-5', '@ai-sdk/anthropic'), output());
    for (let turn = 0; turn < 2; turn++) {
      const params = output();
      native.apply(request('s1', 'openrouter', 'anthropic/claude-sonnet-4-5', '@openrouter/ai-sdk-provider'), params);
      expect(params.options).toEqual({});
    }
    native.apply(request('s1', 'openai', 'gpt-5', '@ai-sdk/openai'), output());
    expect(native.clientFloor('s1')).toBeUndefined();
    expect(warnings).toHaveLength(3);
    expect(warnings.join('\n')).toMatch(/native compaction not sent \(anthropic\/claude-sonnet-4-5 on openrouter/);
    expect(warnings.join('\n')).toMatch(/opencode's OpenAI provider has no option for context_management/);
  });
});
