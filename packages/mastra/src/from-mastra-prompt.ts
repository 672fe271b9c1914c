import type { LanguageModelV4Message, SharedV4FileData } from '@ai-sdk/provider';
import { fromAiSdkMessage, type MappedMessage } from '@ctxhost/ai-sdk';

type MastraPart = Exclude<LanguageModelV4Message['content'], string>[number];

/**
 * One message of the prompt Mastra hands to `processLLMRequest`, as a ctxhost
 * `Message` (`@ctxhost/ai-sdk`'s mapping). Mastra builds that prompt with the
 * AI SDK 5 shape of a file (`data` a base64 string, bytes or a URL, where
 * specification v4 tags it `{ type: 'data' | 'url', … }`): such parts are read in
 * the tagged shape, and the caller's parts stay what is sent when nothing changed
 * them. Anything else ctxhost has no place for leaves the message unmapped.
 */
export function fromMastraMessage(source: LanguageModelV4Message, id: string): MappedMessage {
  // Without a file part there is nothing to tag: no copy of the message (a prompt handed over whole maps each once).
  if (typeof source.content === 'string' || !(source.content as readonly MastraPart[]).some(isFile))
    return fromAiSdkMessage(source, id);
  const content = (source.content as readonly MastraPart[]).map(tagFileData);
  const mapped = fromAiSdkMessage({ ...source, content } as LanguageModelV4Message, id);
  return mapped.ok ? { ...mapped, sourceParts: source.content } : mapped;
}

function isFile(part: MastraPart): boolean {
  return part.type === 'file';
}

function tagFileData(part: MastraPart): MastraPart {
  if (part.type !== 'file') return part;
  const data: unknown = part.data;
  const tagged = toTagged(data);
  return tagged === undefined ? part : { ...part, data: tagged };
}

function toTagged(data: unknown): SharedV4FileData | undefined {
  if (data instanceof URL) return { type: 'url', url: data };
  if (data instanceof Uint8Array) return { type: 'data', data };
  if (typeof data !== 'string') return undefined;
  return /^https?:\/\//i.test(data) ? { type: 'url', url: new URL(data) } : { type: 'data', data };
}
