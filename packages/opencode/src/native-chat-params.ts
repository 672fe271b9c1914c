import { aiSdkContextManagement, type HostLogger } from '@ctxhost/core';
import { buildAnthropicContextManagement, nativeTarget, type NativeCompactionConfig } from '@ctxhost/native-compaction';
import type { Hooks } from '@opencode-ai/plugin';

type ChatParams = Parameters<NonNullable<Hooks['chat.params']>>;

/** opencode's provider package for Anthropic: the one whose provider options carry `contextManagement`. */
const ANTHROPIC_SDK = '@ai-sdk/anthropic';

export interface NativeChatParams {
  /** The `chat.params` tap: adds Anthropic's context management to the request's provider options. */
  apply(input: ChatParams[0], output: ChatParams[1]): void;
  /**
   * The fraction of the window below which ctxhost's own compaction waits for the server's (as
   * `withServerFirst` does), for a session whose last request carried the edits; else undefined.
   */
  clientFloor(sessionId: string): number | undefined;
  forget(sessionId: string): void;
}

/**
 * `hooks.native-compaction` inside opencode. opencode builds its own requests, but `chat.params`
 * output.options are the provider options of the AI SDK call (opencode files them under the provider
 * package's key), so Anthropic's threshold compaction and context editing go out as
 * `@ai-sdk/anthropic`'s `contextManagement`, which adds the betas itself. The user's own
 * `contextManagement` (or on-demand `compaction`) wins. A request the edits cannot ride on (another
 * provider, a model that is not Claude) goes out unchanged, said once per model; so does OpenAI's
 * inline compaction, which opencode's `@ai-sdk/openai` has no option for.
 */
export function createNativeChatParams(config: NativeCompactionConfig, logger: HostLogger): NativeChatParams {
  const anthropic = buildAnthropicContextManagement(config.anthropic);
  const carrying = new Set<string>();
  const said = new Set<string>();
  const sayOnce = (key: string, reason: string) => {
    if (said.has(key)) return;
    said.add(key);
    logger.warn(`native compaction not sent (${reason}); ctxhost's own compaction keeps the context`);
  };
  return {
    apply({ sessionID, model }, output) {
      carrying.delete(sessionID);
      const name = `${model.providerID}/${model.api.id}`;
      if (config.openai.inline.enabled && model.providerID === 'openai')
        sayOnce(`openai:${name}`, `${name}: opencode's OpenAI provider has no option for context_management`);
      if (anthropic === undefined) return;
      const target = nativeTarget(model.api.id, model.providerID);
      if (target.vendor !== 'anthropic' || model.api.npm !== ANTHROPIC_SDK) {
        const reason = target.vendor === undefined ? target.reason : `${name} is not served by ${ANTHROPIC_SDK}`;
        sayOnce(`anthropic:${name}`, reason);
        return;
      }
      const own = output.options as Record<string, unknown>;
      if (own['contextManagement'] === undefined && own['compaction'] === undefined)
        own['contextManagement'] = aiSdkContextManagement(anthropic.contextManagement.edits);
      carrying.add(sessionID);
    },
    clientFloor: (sessionId) => (carrying.has(sessionId) ? config.client_fallback_threshold : undefined),
    forget: (sessionId) => carrying.delete(sessionId),
  };
}
