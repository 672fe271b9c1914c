import { SUMMARY_SECTIONS } from '@ctxhost/compressor';
import { describe, expect, it } from 'vitest';
import { compactionBrief, REQUEST_QUOTE_CHARS } from './compaction-brief.js';

describe('compactionBrief', () => {
  it('asks for ctxhost’s sections, quotes the newest request and carries the todo list with statuses', () => {
    const brief = compactionBrief({
      currentRequest: 'make the parser accept trailing commas',
      todos: [
        { content: 'read parser.ts', status: 'completed', priority: 'high' },
        { content: 'add the trailing-comma case', status: 'in_progress' },
      ],
    });
    for (const section of SUMMARY_SECTIONS) expect(brief).toContain(`## ${section}`);
    expect(brief).toContain('<current-request>\nmake the parser accept trailing commas\n</current-request>');
    expect(brief).toContain(
      '- [completed] read parser.ts (priority high)\n- [in_progress] add the trailing-comma case',
    );
  });

  it('leaves out what it does not have: no request section for a withdrawn request, no todo section for an empty list', () => {
    const brief = compactionBrief({ currentRequest: undefined, todos: [] });
    expect(brief).not.toContain('## Current request');
    expect(brief).not.toContain('## Todo list');
  });

  it('quotes a very long request by its head and tail', () => {
    const request = `HEAD ${'x'.repeat(REQUEST_QUOTE_CHARS * 2)} TAIL`;
    const brief = compactionBrief({ currentRequest: request, todos: [] });
    expect(brief).toContain('<current-request>\nHEAD ');
    expect(brief).toContain(' TAIL\n</current-request>');
    expect(brief.length).toBeLessThan(request.length);
  });
});
