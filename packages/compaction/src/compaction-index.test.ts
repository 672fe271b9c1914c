import { createTokenCounter, groupMessages } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { createCompactionIndex } from './compaction-index.js';
import { createConversation, ids } from './conversation.test-helper.js';

describe('createCompactionIndex', () => {
  it('keeps included totals equal to a recount after every change', () => {
    const c = createConversation();
    const messages = [
      c.system(),
      c.user(),
      c.calls(['a', '1'], ['b', '2']),
      c.results(['1', 'one']),
      c.results(['2', 'two']),
      c.assistant(),
      c.user(),
      c.assistant(),
    ];
    const index = createCompactionIndex(messages);
    const recount = () => {
      const included = index.ordered().filter((group) => !group.excluded);
      return {
        tokens: included.reduce((total, group) => total + group.tokens, 0),
        messages: included.reduce((total, group) => total + group.messageCount, 0),
        groups: included.length,
        turns: included.filter((group) => group.kind === 'user').length,
        toolCallGroups: included.filter((group) => group.kind === 'tool_call').length,
        nonSystemMessages: included
          .filter((group) => group.kind !== 'system')
          .reduce((total, group) => total + group.messageCount, 0),
        nonSystemGroups: included.filter((group) => group.kind !== 'system').length,
      };
    };
    expect(index.included).toEqual(recount());
    const [, user, tools] = index.ordered();
    index.exclude(tools!);
    index.exclude(tools!);
    expect(index.included).toEqual(recount());
    const line = index.insertSummary(c.assistant('[Tool results: a: one; b: two]'), {
      before: tools!,
      source: 'tool-results',
    });
    expect(index.included).toEqual(recount());
    index.exclude(user!);
    index.include(user!);
    index.removeInserted(line);
    index.include(tools!);
    expect(index.included).toEqual(recount());
    expect(index.included).toEqual(index.original);
  });

  it('places an inserted group before its anchor and projects included groups in order', () => {
    const c = createConversation();
    const messages = [c.user(), c.assistant(), c.user(), c.assistant()];
    const index = createCompactionIndex(messages);
    const groups = index.ordered();
    index.exclude(groups[0]!);
    index.exclude(groups[1]!);
    const summary = c.user('[Summary] earlier');
    index.insertSummary(summary, { before: groups[0]!, source: 'model' });
    expect(ids(index.projection())).toEqual([summary.id, 'm3', 'm4']);
    expect(index.insertedGroups().map((group) => group.kind)).toEqual(['summary']);
  });

  it('pulls a result that sat apart from its call next to the call, and never mutates the messages', () => {
    const c = createConversation();
    const messages = [c.user(), c.calls(['deploy', 'x']), c.user('approved'), c.results(['x', 'done'])];
    const frozen = structuredClone(messages);
    const index = createCompactionIndex(messages);
    expect(ids(index.projection())).toEqual(['m1', 'm2', 'm4', 'm3']);
    index.exclude(index.ordered()[1]!);
    expect(ids(index.projection())).toEqual(['m1', 'm3']);
    expect(messages).toEqual(frozen);
  });

  it('takes counts from the counter cache', () => {
    const c = createConversation();
    const messages = [c.user(), c.assistant(), c.user()];
    const counter = createTokenCounter();
    createCompactionIndex(messages, { counter });
    const missesAfterFirst = counter.stats.misses;
    createCompactionIndex([...messages, c.assistant()], { counter });
    expect(counter.stats.misses - missesAfterFirst).toBe(1);
    expect(createCompactionIndex(messages, { counter }).included.tokens).toBe(
      groupMessages(messages).reduce((total, group) => total + group.tokens, 0),
    );
  });
});
