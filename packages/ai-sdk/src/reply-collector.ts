import type { AiContent, AiStreamPart, AiUsage } from './ai-sdk-types.js';

export interface CollectedReply {
  content: AiContent[];
  usage: AiUsage | undefined;
}

/**
 * A pass-through for a reply stream that keeps what the reply said (text,
 * reasoning, tool calls, the usage on `finish`) and hands it over when the
 * stream ends. The caller's chunks are not changed, delayed or reordered.
 */
export function collectReply(
  onEnd: (reply: CollectedReply) => Promise<void>,
): TransformStream<AiStreamPart, AiStreamPart> {
  const content: AiContent[] = [];
  const open = new Map<string, { type: 'text' | 'reasoning'; text: string }>();
  let usage: AiUsage | undefined;
  let failed = false;
  return new TransformStream({
    transform(part, controller) {
      controller.enqueue(part);
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start': {
          const block = { type: part.type === 'text-start' ? ('text' as const) : ('reasoning' as const), text: '' };
          open.set(part.id, block);
          content.push(block);
          break;
        }
        case 'text-delta':
        case 'reasoning-delta': {
          const block = open.get(part.id);
          if (block !== undefined) block.text += part.delta;
          break;
        }
        case 'tool-call':
        case 'custom':
          content.push(part);
          break;
        case 'finish':
          usage = part.usage;
          break;
        case 'error':
          failed = true;
          break;
      }
    },
    async flush() {
      if (!failed) await onEnd({ content, usage });
    },
  });
}
