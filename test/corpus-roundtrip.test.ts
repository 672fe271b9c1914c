import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromAnthropic, fromOpenAI, toAnthropic, toOpenAI, type Message, type Part } from '@ctxhost/core';
import { readTranscript } from '@ctxhost/transcripts';

const corpus = join(import.meta.dirname, 'fixtures', 'corpus');
const files = ['claude-code', 'openhands', 'swe-agent'].flatMap((folder) =>
  readdirSync(join(corpus, folder))
    .filter((name) => /\.(jsonl|json|traj)$/.test(name))
    .map((name) => join(folder, name)),
);

/**
 * Parts in order without ids: the content a conversion must keep. A tool
 * result's `name` is the importer's note of which tool answered; the Anthropic
 * format has no field for it (the call id links them), so it is left out.
 */
function contentOf(messages: readonly Message[], keep: (part: Part) => boolean = () => true): unknown[] {
  return messages.flatMap((message) =>
    message.parts.filter(keep).map(({ id: _id, ...part }) => {
      if (part.type !== 'tool-result') return part;
      const { name: _name, ...rest } = part;
      return rest;
    }),
  );
}

describe.each(files)('corpus round trips: %s', (file) => {
  it('Anthropic → ctxhost → Anthropic is equal, and keeps every part', async () => {
    const { messages } = await readTranscript(join(corpus, file));
    const wire = toAnthropic(messages);
    const back = fromAnthropic(wire.messages, wire.system);
    expect(toAnthropic(back)).toEqual(wire);
    expect(contentOf(back)).toEqual(contentOf(messages));
  });

  it('OpenAI → ctxhost → OpenAI is equal, and keeps every part but reasoning', async () => {
    const { messages } = await readTranscript(join(corpus, file));
    const wire = toOpenAI(messages);
    const back = fromOpenAI(wire);
    expect(toOpenAI(back)).toEqual(wire);
    const notReasoning = (part: Part) => part.type !== 'reasoning';
    const texts = (list: readonly Message[]) => contentOf(list, notReasoning).length;
    expect(texts(back)).toBeGreaterThan(0);
    expect(
      contentOf(back, (part) => part.type === 'tool-call').map((part) => (part as { callId: string }).callId),
    ).toEqual(
      contentOf(messages, (part) => part.type === 'tool-call').map((part) => (part as { callId: string }).callId),
    );
  });
});
