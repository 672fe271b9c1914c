import { deriveProbes, type Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { PROBE_QUESTIONS, probeQuestionMessage, probesAnswered } from './probe-questions.js';

const span: Message[] = [
  {
    id: 'u',
    role: 'user',
    parts: [{ id: 'u.0', type: 'text', text: 'Fix the parser in src/parse/tokens.ts. Never change the public API.' }],
  },
  {
    id: 'a',
    role: 'assistant',
    parts: [
      {
        id: 'a.0',
        type: 'tool-call',
        callId: 'c1',
        name: 'Write',
        input: { file_path: 'src/parse/tokens.ts', content: 'x' },
      },
    ],
  },
];

describe('probe questions', () => {
  it('asks one question per kind of fact the probes cover, never naming a fact', () => {
    const probes = deriveProbes(span);
    const question = probeQuestionMessage(probes, 'q');
    const body = question.parts[0]!.type === 'text' ? question.parts[0]!.text : '';
    expect(body).toContain(PROBE_QUESTIONS.file);
    expect(body).toContain(PROBE_QUESTIONS.constraint);
    expect(body).not.toContain(PROBE_QUESTIONS.command);
    expect(body).not.toContain('tokens.ts');
  });

  it('scores an answer by the facts it names: the path exactly, a constraint by most of its words', () => {
    const probes = deriveProbes(span);
    const named = (answer: string) => probesAnswered(probes, answer).map((probe) => probe.kind);
    expect(named('1. src/parse/tokens.ts\n2. The user said never to change the public API.')).toEqual(
      expect.arrayContaining(['file', 'constraint']),
    );
    expect(named('1. src/parse/lexer.ts\n2. None.')).not.toContain('file');
    expect(named('I do not remember.')).toEqual([]);
  });
});
