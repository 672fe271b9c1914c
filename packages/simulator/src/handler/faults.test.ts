import { describe, expect, it } from 'vitest';
import { createFaultPlan, mulberry32 } from './faults.js';
import type { MessagesRequest } from '../wire/wire.js';

const body = (text: string): MessagesRequest => ({
  model: 'm',
  max_tokens: 1,
  messages: [{ role: 'user', content: text }],
});
const kinds = (plan: ReturnType<typeof createFaultPlan>, count: number, text = 'x') =>
  Array.from({ length: count }, (_, index) => plan.pick(index + 1, body(text))?.kind ?? '-');

describe('the fault plan', () => {
  it('fails the next N requests, then none', () => {
    const plan = createFaultPlan();
    plan.next(2, 'overloaded');
    expect(kinds(plan, 4)).toEqual(['overloaded', 'overloaded', '-', '-']);
  });

  it('fails request number k only', () => {
    const plan = createFaultPlan();
    plan.at(3, { kind: 'rate_limit', retryAfterSeconds: 7 });
    expect(kinds(plan, 4)).toEqual(['-', '-', 'rate_limit', '-']);
  });

  it('fails requests matching a predicate, at most `times` times', () => {
    const plan = createFaultPlan();
    plan.when((request) => JSON.stringify(request.messages).includes('boom'), 'server_error', 2);
    expect(kinds(plan, 1, 'calm')).toEqual(['-']);
    expect(kinds(plan, 3, 'boom')).toEqual(['server_error', 'server_error', '-']);
  });

  it('clears every rule', () => {
    const plan = createFaultPlan();
    plan.next(5, 'drop');
    plan.clear();
    expect(kinds(plan, 2)).toEqual(['-', '-']);
  });

  it('draws random faults repeatably from a seed, at about the asked rate', () => {
    const draw = (seed: number) =>
      kinds(createFaultPlan({ probability: 0.3, seed, kinds: ['overloaded', 'drop'] }), 400);
    const first = draw(7);
    expect(draw(7)).toEqual(first);
    expect(draw(8)).not.toEqual(first);
    const faulted = first.filter((kind) => kind !== '-').length;
    expect(faulted).toBeGreaterThan(80);
    expect(faulted).toBeLessThan(160);
    expect(new Set(first)).toEqual(new Set(['-', 'overloaded', 'drop']));
  });

  it('mulberry32 stays within [0, 1)', () => {
    const next = mulberry32(123);
    const values = Array.from({ length: 1000 }, next);
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
  });
});
