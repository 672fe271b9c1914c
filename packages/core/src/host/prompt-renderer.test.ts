import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.js';
import { markJournaledList, replaceEntry } from './journaled-list.js';
import { createPromptRenderer } from './prompt-renderer.js';

const text = (id: string, body: string, role: Message['role'] = 'user'): Message => ({
  id,
  role,
  parts: [{ id: `${id}:0`, type: 'text', text: body }],
});

/** Each message as one item per part, `<id>:<text>`; a message whose text starts with "two" renders as two items. */
const renderNaive = (message: Message): string[] => {
  const body = message.parts.map((part) => ('text' in part ? part.text : '')).join('');
  return body.startsWith('two') ? [`${message.id}:${body}`, `${message.id}:${body}+`] : [`${message.id}:${body}`];
};
const marked = (message: Message): number => (message.parts.some((part) => part.cacheControl !== undefined) ? 1 : 0);

function counting() {
  const rendered: string[] = [];
  const renderer = createPromptRenderer<string>({
    render: (message) => {
      rendered.push(message.id);
      return renderNaive(message);
    },
    tally: marked,
  });
  return { renderer, rendered };
}

describe('createPromptRenderer', () => {
  it('renders each message once and only what is new or replaced afterwards', () => {
    const { renderer, rendered } = counting();
    const history = [text('a', 'one'), text('b', 'two'), text('c', 'three')];
    expect(renderer.render(history).items).toEqual(['a:one', 'b:two', 'b:two+', 'c:three']);
    rendered.length = 0;
    const markedC = {
      ...history[2]!,
      parts: [{ ...history[2]!.parts[0]!, cacheControl: { type: 'ephemeral' as const } }],
    };
    const next = renderer.render([history[0]!, history[1]!, markedC, text('d', 'four')]);
    expect(next.items).toEqual(['a:one', 'b:two', 'b:two+', 'c:three', 'd:four']);
    expect(next.tally).toBe(1);
    expect(rendered).toEqual(['c', 'd']);
    rendered.length = 0;
    // The mark moves on: the messages at places that hold other objects are rendered, the rest kept.
    const d = text('d', 'four');
    const again = renderer.render([...history, d, text('e', 'five')]);
    expect(again.tally).toBe(0);
    expect(rendered).toEqual(['c', 'd', 'e']);
    rendered.length = 0;
    renderer.render([...history, d, text('e', 'five'), text('f', 'six')]);
    expect(rendered).toEqual(['e', 'f']);
  });

  it('hands a new array each call, so a caller that changes it changes nothing kept', () => {
    const { renderer } = counting();
    const history = [text('a', 'one'), text('b', 'two')];
    const first = renderer.render(history).items;
    first.length = 0;
    expect(renderer.render(history).items).toEqual(['a:one', 'b:two', 'b:two+']);
  });

  it('looks only at the places a journaled list replaced or appended since the last call', () => {
    const { renderer, rendered } = counting();
    const history = [text('a', 'one'), text('b', 'two'), text('c', 'three'), text('d', 'four')];
    const list = markJournaledList([...history]);
    renderer.render(list);
    rendered.length = 0;
    const markedB = {
      ...history[1]!,
      parts: [{ ...history[1]!.parts[0]!, cacheControl: { type: 'ephemeral' as const } }],
    };
    replaceEntry(list, 1, markedB);
    list.push(text('e', 'five'));
    const next = renderer.render(list);
    expect(rendered).toEqual(['b', 'e']);
    expect(next.items).toEqual(['a:one', 'b:two', 'b:two+', 'c:three', 'd:four', 'e:five']);
    expect(next.tally).toBe(1);
    rendered.length = 0;
    replaceEntry(list, 1, history[1]!);
    replaceEntry(list, 3, text('d', 'two four'));
    expect(renderer.render(list).items).toEqual([
      'a:one',
      'b:two',
      'b:two+',
      'c:three',
      'd:two four',
      'd:two four+',
      'e:five',
    ]);
    // d renders to two items now: it and what follows are rendered again; a and c are kept.
    expect(rendered.filter((id) => id === 'a' || id === 'c')).toEqual([]);
    expect(rendered).toContain('b');
  });

  it('agrees with rendering every message, over random edits in place of a journaled list', () => {
    let seed = 11;
    const random = (below: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    const { renderer } = counting();
    let list = markJournaledList<Message>([]);
    let made = 0;
    const fresh = (): Message => {
      made++;
      return text(`m${made}`, `${random(3) === 0 ? 'two' : 'one'}-${made}`);
    };
    let start = 0;
    for (let step = 0; step < 300; step++) {
      const edit = random(8);
      if (edit <= 3 || list.length === 0) list.push(fresh());
      else if (edit <= 5) replaceEntry(list, random(list.length), fresh());
      else if (edit === 6) list = markJournaledList(list.slice(0, random(list.length + 1)));
      else start = random(3);
      const got = renderer.render(list, start);
      expect(got.items).toEqual(list.slice(start).flatMap(renderNaive));
    }
  });

  it('agrees with rendering every message, over random edits (append, replace, shorten, re-render counts, head length)', () => {
    let seed = 7;
    const random = (below: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    const { renderer } = counting();
    let messages: Message[] = [];
    let made = 0;
    for (let step = 0; step < 300; step++) {
      const edit = random(5);
      const fresh = (): Message => {
        made++;
        const body = `${random(3) === 0 ? 'two' : 'one'}-${made}`;
        const message = text(`m${made}`, body);
        return random(4) === 0
          ? { ...message, parts: [{ ...message.parts[0]!, cacheControl: { type: 'ephemeral' } }] }
          : message;
      };
      if (edit <= 1 || messages.length === 0) messages = [...messages, fresh(), ...(edit === 1 ? [fresh()] : [])];
      else if (edit === 2) messages = messages.map((message) => (random(6) === 0 ? fresh() : message));
      else if (edit === 3) messages = messages.slice(0, random(messages.length + 1));
      else messages = [fresh(), ...messages.slice(random(messages.length))];
      // A head of 0–2 messages the caller renders itself.
      const start = random(3);
      const got = renderer.render(messages, start);
      const rest = messages.slice(start);
      expect(got.items).toEqual(rest.flatMap(renderNaive));
      expect(got.tally).toBe(rest.reduce((sum, message) => sum + marked(message), 0));
    }
  });

  it("hands back the caller's own list when the rendering is exactly it, checking only what changed", () => {
    const sources = new Map<string, { id: string }>();
    const sourceOf = (message: Message): { id: string } => {
      const known = sources.get(message.id) ?? { id: message.id };
      sources.set(message.id, known);
      return message.parts.some((part) => part.cacheControl !== undefined) ? { id: `${message.id}+mark` } : known;
    };
    const renderer = createPromptRenderer<{ id: string }>({ render: (message) => [sourceOf(message)] });
    const history = [text('a', 'one'), text('b', 'two'), text('c', 'three')];
    const head = { id: 'head' };
    const storage: unknown[] = [head, ...history.map(sourceOf)];
    const list = history.map(sourceOf);
    expect(renderer.render(history, 0, { list, storage, offset: 1 }).items).toBe(list);
    // The storage only grows; the caller hands a new array with one more.
    const d = text('d', 'four');
    storage.push(sourceOf(d));
    const longer = [...list, sourceOf(d)];
    expect(renderer.render([...history, d], 0, { list: longer, storage, offset: 1 }).items).toBe(longer);
    // A mark on b: the request is no longer the caller's list (a copy with the marked item), the list untouched.
    const markedB = {
      ...history[1]!,
      parts: [{ ...history[1]!.parts[0]!, cacheControl: { type: 'ephemeral' as const } }],
    };
    const marked = renderer.render([history[0]!, markedB, history[2]!, d], 0, { list: longer, storage, offset: 1 });
    expect(marked.items).not.toBe(longer);
    expect(marked.items.map((item) => item.id)).toEqual(['a', 'b+mark', 'c', 'd']);
    expect(longer.map((item) => item.id)).toEqual(['a', 'b', 'c', 'd']);
    // The mark gone: the caller's list again.
    expect(renderer.render([...history, d], 0, { list: longer, storage, offset: 1 }).items).toBe(longer);
  });

  it('never hands back a caller list whose objects are not the rendered ones, nor one of another length', () => {
    const renderer = createPromptRenderer<{ id: string }>({ render: (message) => [{ id: message.id }] });
    const history = [text('a', 'one'), text('b', 'two')];
    const first = renderer.render(history).items;
    // Equal objects, not the same ones: a copy of the rendering.
    const equal = [{ id: 'a' }, { id: 'b' }];
    const handed = renderer.render(history, 0, { list: equal, storage: equal, offset: 0 }).items;
    expect(handed).not.toBe(equal);
    expect(handed[0]).toBe(first[0]);
    const shorter = first.slice(0, 1);
    expect(renderer.render(history, 0, { list: shorter, storage: first, offset: 0 }).items).not.toBe(shorter);
    expect(renderer.render(history, 0, { list: first, storage: first, offset: 0 }).items).toBe(first);
  });
});
