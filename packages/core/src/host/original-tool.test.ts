import { describe, expect, it } from 'vitest';
import { createHost } from './create-host.js';
import { createMessage } from '../model/part-ids.js';
import { ORIGINAL_TOOL, readOriginal } from './original-tool.js';

/** A summary's covers as written today (a span) and as written before spans (a list of ids). */
type CoversForm = 'span' | 'list';

async function session(form: CoversForm = 'span') {
  const host = createHost();
  const current = await host.session('s');
  const call = createMessage('assistant', [
    { type: 'tool-call', callId: 'c1', name: 'bash', input: { command: 'cat log' } },
  ]);
  const result = createMessage('tool', [{ type: 'tool-result', callId: 'c1', output: 'one\ntwo\nthree\nfour' }]);
  await current.append(createMessage('user', [{ type: 'text', text: 'show the log' }]));
  await current.append(call);
  await current.append(result);
  const summary = createMessage('user', [{ type: 'text', text: 'summary' }], {
    id: 'sum-1',
    meta: {
      summary: {
        covers: form === 'list' ? [call.id, result.id] : { first: call.id, last: result.id, count: 2 },
        engine: 'test',
        source: 'extractive',
        iteration: 1,
      },
    },
  });
  await current.applyCompaction([summary, ...current.messages().slice(0, 1)], {
    engine: 'test',
    reason: 'manual',
    tokensBefore: 10,
    tokensAfter: 5,
    messagesBefore: 3,
    messagesAfter: 2,
  });
  return { current, result };
}

describe('readOriginal (ctxhost_original)', () => {
  it.each<CoversForm>(['span', 'list'])(
    'reads a part by its id, a line range of it, a message by its id, and the n-th message a summary covers (%s)',
    async (form) => {
      const { current, result } = await session(form);
      const partId = result.parts[0]!.id;
      expect(await readOriginal(current, { handle: partId, fromLine: 2, toLine: 3 })).toEqual({
        output: `Lines 2-3 of 4 of the original output of part ${partId}:\ntwo\nthree`,
      });
      expect((await readOriginal(current, { partId })).output).toContain('one\ntwo\nthree\nfour');
      expect((await readOriginal(current, { handle: 'sum-1#1' })).output).toContain(
        '[tool call bash] {"command":"cat log"}',
      );
      expect((await readOriginal(current, { handle: 'sum-1#2' })).output).toContain(
        `of the original message ${result.id}:\ntool:\none`,
      );
      expect((await readOriginal(current, { handle: 'sum-1#3' })).isError).toBe(true);
    },
  );

  it.each([
    [{ handle: 'missing' }, 'No original with handle missing'],
    [{ handle: 'sum-1#9' }, 'No original with handle sum-1#9'],
    [{ handle: '' }, '"handle" must be a non-empty string'],
    [{ handle: 'x', fromLine: 0 }, '"fromLine" must be a whole number ≥ 1, got 0'],
    ['just text', 'expected an object with a "handle"'],
  ])('answers %j with an error the model can act on', async (input, message) => {
    const { current } = await session();
    const answer = await readOriginal(current, input);
    expect(answer.isError).toBe(true);
    expect(answer.output).toContain(message);
  });

  it('is a tool definition any engine or agent can offer', () => {
    expect(ORIGINAL_TOOL).toMatchObject({ name: 'ctxhost_original', inputSchema: { required: ['handle'] } });
  });
});
