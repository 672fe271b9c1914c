import { openAICompactionItemOf, type Host, type Message } from '@ctxhost/core';
import { extractiveSummary } from '@ctxhost/compressor';

/**
 * A readable copy for an OpenAI compaction item that arrived in a reply (inline compaction): the server
 * compacted everything the request sent, so the copy is ctxhost's extractive summary of the session's
 * messages before the reply (no model call while the turn goes on). Written into the part's text, the
 * item's fields untouched: sent to OpenAI the item goes out exactly; sent anywhere else (another
 * provider, or OpenAI refusing the item with `invalid_encrypted_content`) the copy does. A part that has
 * a copy already is left alone.
 */
export async function addInlineReadableCopy(host: Host, sessionId: string, message: Message): Promise<void> {
  const blank = message.parts.find(
    (part) => openAICompactionItemOf(part) !== undefined && part.type === 'text' && part.text === '',
  );
  if (blank === undefined) return;
  const session = await host.session(sessionId);
  const messages = session.messages();
  const at = messages.findIndex((candidate) => candidate.id === message.id);
  const span = (at < 0 ? messages : messages.slice(0, at)).filter((candidate) => candidate.role !== 'system');
  if (span.length === 0) return;
  await session.update(
    blank.id,
    { text: extractiveSummary(span) },
    'readable copy of an OpenAI inline compaction item',
  );
}
