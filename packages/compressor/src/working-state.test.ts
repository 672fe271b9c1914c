import type { Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { carriedRequests, collectWorkingState, renderWorkingState, withCarriedRequests } from './working-state.js';

function message(role: Message['role'], text: string, id: string, summary = false): Message {
  return {
    id,
    role,
    parts: [{ id: `${id}.0`, type: 'text', text }],
    ...(summary ? { meta: { summary: { covers: { first: 'a', last: 'b', count: 2 }, engine: 'compressor' } } } : {}),
  };
}

const summaryText = (message: Message) =>
  message.meta?.summary === undefined ? undefined : (message.parts[0] as { text: string }).text;

const block = renderWorkingState({
  task: 'Port the parser to Rust.',
  currentRequest: 'Now add a test for\n\n### nested headings in a request',
  recentFiles: ['src/parser.rs'],
});

describe('requests an earlier summary carried', () => {
  it('reads back the task and the current request the working state quoted, whole', () => {
    expect(carriedRequests(`## Goal\nport\n\n${block}`)).toEqual({
      task: 'Port the parser to Rust.',
      currentRequest: 'Now add a test for\n\n### nested headings in a request',
    });
    expect(carriedRequests('## Goal\nno working state')).toEqual({});
  });

  it('makes the carried request the open one when no request came after the summary', () => {
    const messages = [
      message('user', 'What is this project for?', 'u1'),
      message('assistant', 'A scratch folder.', 'a1'),
      message('user', `[CONTEXT COMPACTION]\n\n${block}`, 's1', true),
      message('assistant', 'Reading the parser.', 'a2'),
      message('assistant', 'Done reading.', 'a3'),
    ];
    const state = withCarriedRequests(collectWorkingState(messages, 2, 4), messages, 2, 4, summaryText);
    expect(state.currentRequest).toBe('Now add a test for\n\n### nested headings in a request');
    // The first request is still in the prompt's head: it stays the task, the carried one is not.
    expect(state.task).toBeUndefined();
  });

  it('leaves a request made after the summary as the open one', () => {
    const messages = [
      message('user', `[CONTEXT COMPACTION]\n\n${block}`, 's1', true),
      message('user', 'Forget the test; write the docs.', 'u1'),
      message('assistant', 'Writing docs.', 'a1'),
      message('user', 'ok', 'u2'),
    ];
    const collected = collectWorkingState(messages, 0, 3);
    expect(withCarriedRequests(collected, messages, 0, 3, summaryText)).toBe(collected);
  });
});
