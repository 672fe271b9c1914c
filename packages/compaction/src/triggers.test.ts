import { describe, expect, it } from 'vitest';
import { createCompactionIndex } from './compaction-index.js';
import { createConversation } from './conversation.test-helper.js';
import { CompactionError } from './errors.js';
import { triggers, type CompactionTrigger } from './triggers.js';

const c = createConversation();
// system, user, calls+results (one tool_call group), assistant, user  → 5 groups, 6 messages, 2 turns
const messages = [
  c.system(),
  c.user(),
  c.calls(['get_weather', 'a']),
  c.results(['a', 'sunny']),
  c.assistant(),
  c.user(),
];

describe('triggers', () => {
  const index = createCompactionIndex(messages);
  const tokens = index.included.tokens;
  const cases: [string, CompactionTrigger, boolean][] = [
    ['always', triggers.always, true],
    ['never', triggers.never, false],
    ['tokensExceed(tokens - 1)', triggers.tokensExceed(tokens - 1), true],
    ['tokensExceed(tokens) is strict', triggers.tokensExceed(tokens), false],
    ['messagesExceed(5)', triggers.messagesExceed(5), true],
    ['messagesExceed(6) is strict', triggers.messagesExceed(6), false],
    ['turnsExceed(1)', triggers.turnsExceed(1), true],
    ['turnsExceed(2) is strict', triggers.turnsExceed(2), false],
    ['groupsExceed(4) counts the system group', triggers.groupsExceed(4), true],
    ['groupsExceed(5) is strict', triggers.groupsExceed(5), false],
    ['hasToolCalls()', triggers.hasToolCalls(), true],
    ['all() of nothing', triggers.all(), true],
    ['any() of nothing', triggers.any(), false],
    ['all(true, false)', triggers.all(triggers.always, triggers.never), false],
    ['all(true, true)', triggers.all(triggers.hasToolCalls(), triggers.turnsExceed(1)), true],
    ['any(false, true)', triggers.any(triggers.never, triggers.turnsExceed(1)), true],
    ['any(false, false)', triggers.any(triggers.never, triggers.turnsExceed(9)), false],
  ];
  it.each(cases)('%s → %s', (_name, trigger, expected) => {
    expect(trigger(index)).toBe(expected);
  });

  it('counts only included groups', () => {
    const fresh = createCompactionIndex(messages);
    const toolGroup = fresh.ordered().find((group) => group.kind === 'tool_call')!;
    const firstUser = fresh.ordered().find((group) => group.kind === 'user')!;
    fresh.exclude(toolGroup);
    fresh.exclude(firstUser);
    expect(triggers.hasToolCalls()(fresh)).toBe(false);
    expect(triggers.turnsExceed(0)(fresh)).toBe(true);
    expect(triggers.turnsExceed(1)(fresh)).toBe(false);
    expect(triggers.messagesExceed(3)(fresh)).toBe(false);
    expect(triggers.groupsExceed(2)(fresh)).toBe(true);
    expect(triggers.groupsExceed(3)(fresh)).toBe(false);
    expect(triggers.tokensExceed(tokens - toolGroup.tokens - firstUser.tokens)(fresh)).toBe(false);
  });

  it.each([-1, 1.5, Number.NaN])('rejects a threshold of %s with a coded error', (limit) => {
    const thrown = (() => {
      try {
        triggers.tokensExceed(limit);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(CompactionError.isInstance(thrown)).toBe(true);
    expect((thrown as CompactionError).code).toBe('CTXHOST_COMPACTION_OPTIONS_INVALID');
  });
});
