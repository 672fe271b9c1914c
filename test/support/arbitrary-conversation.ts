import type { Message, PartInput } from '@ctxhost/core';
import fc from 'fast-check';

/**
 * The one fast-check arbitrary for valid conversations, shared by the property
 * tests: an optional system prompt, an optional earlier summary, then user turns,
 * each followed by assistant steps — plain answers (with thinking sometimes),
 * or parallel tool calls whose results come in one message or several, as
 * `user` or `tool` messages, sometimes after an approval message, sometimes long
 * or with an image (and, with `thinkingMessages`, sometimes after their thinking
 * as an assistant message of its own, as opencode and the AI SDK record a step). Every call has its result; every result has its call.
 * Test support only: not part of any package's API.
 */

const textStep = fc.record({
  kind: fc.constant('text' as const),
  words: fc.integer({ min: 1, max: 60 }),
  thinking: fc.boolean(),
});

const toolStep = fc.record({
  kind: fc.constant('tools' as const),
  calls: fc.integer({ min: 1, max: 3 }),
  /** One result message per call instead of one for all. */
  split: fc.boolean(),
  /** A user message (an approval) between the calls and their results. */
  approval: fc.boolean(),
  resultRole: fc.constantFrom('user' as const, 'tool' as const),
  words: fc.integer({ min: 1, max: 120 }),
  /** A long output (several thousand characters), what compaction prunes first. */
  long: fc.boolean(),
  image: fc.boolean(),
  isError: fc.boolean(),
});

type TextStep = typeof textStep extends fc.Arbitrary<infer T> ? T : never;
/** The calls' thinking sent as a reasoning-only assistant message before the call message. */
type ToolStep = (typeof toolStep extends fc.Arbitrary<infer T> ? T : never) & { thinkingMessage?: boolean };

export interface ConversationShapeOptions {
  /** Approval messages between calls and results (default true). */
  approvals?: boolean;
  maxTurns?: number;
  /** Reasoning-only assistant messages before some call messages (default false). */
  thinkingMessages?: boolean;
}

export function conversationShapeArbitrary(options: ConversationShapeOptions = {}) {
  const thinkingToolStep: fc.Arbitrary<ToolStep> =
    options.thinkingMessages === true
      ? fc.tuple(toolStep, fc.boolean()).map(([tools, thinkingMessage]) => ({ ...tools, thinkingMessage }))
      : toolStep;
  const step: fc.Arbitrary<TextStep | ToolStep> =
    options.approvals === false
      ? fc.oneof(
          textStep,
          thinkingToolStep.map((tools) => ({ ...tools, approval: false })),
        )
      : fc.oneof(textStep, thinkingToolStep);
  const turn = fc.record({
    words: fc.integer({ min: 1, max: 40 }),
    image: fc.boolean(),
    steps: fc.array(step, { maxLength: 4 }),
  });
  return fc.record({
    system: fc.boolean(),
    priorSummary: fc.boolean(),
    turns: fc.array(turn, { minLength: 1, maxLength: options.maxTurns ?? 12 }),
  });
}

export type ConversationShape = ReturnType<typeof conversationShapeArbitrary> extends fc.Arbitrary<infer T> ? T : never;

/** Valid conversations as ctxhost messages. */
export function conversationArbitrary(options: ConversationShapeOptions = {}): fc.Arbitrary<Message[]> {
  return conversationShapeArbitrary(options).map(buildConversation);
}

/** `count` words of filler. */
export function filler(count: number, word = 'w'): string {
  return Array.from({ length: count }, (_, index) => `${word}${index}`).join(' ');
}

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The messages a shape describes, with readable ids (`m1`, `m1:0`, `call-3-0`). */
export function buildConversation(shape: ConversationShape): Message[] {
  let next = 0;
  const messages: Message[] = [];
  const push = (role: Message['role'], parts: PartInput[], meta?: Message['meta']): string => {
    const id = `m${++next}`;
    messages.push({
      id,
      role,
      parts: parts.map((part, index) => ({ ...part, id: `${id}:${index}` })),
      ...(meta === undefined ? {} : { meta }),
    });
    return id;
  };
  if (shape.system) push('system', [{ type: 'text', text: 'You are a careful coding assistant.' }]);
  if (shape.priorSummary)
    push('user', [{ type: 'text', text: '[Summary] earlier work: read src/app.ts, ran the tests.' }], {
      summary: { covers: ['old-1', 'old-2'], engine: 'summarization', source: 'model' },
    });
  for (const turn of shape.turns) {
    push('user', [
      { type: 'text', text: `question ${next}: ${filler(turn.words, 'ask')}` },
      ...(turn.image
        ? [{ type: 'image' as const, source: { kind: 'base64' as const, mediaType: 'image/png', data: PIXEL } }]
        : []),
    ]);
    for (const step of turn.steps) {
      if (step.kind === 'text') {
        push('assistant', [
          ...(step.thinking
            ? [{ type: 'reasoning' as const, text: `thinking ${filler(5, 't')}`, signature: 'c2ln' }]
            : []),
          { type: 'text', text: filler(step.words) },
        ]);
        continue;
      }
      if (step.thinkingMessage === true)
        push('assistant', [{ type: 'reasoning', text: `thinking ${filler(5, 't')}`, signature: 'c2ln' }]);
      const callIds = Array.from({ length: step.calls }, (_, index) => `call-${next + 1}-${index}`);
      push(
        'assistant',
        callIds.map((callId, index) => ({
          type: 'tool-call' as const,
          callId,
          name: index === 0 ? 'read_file' : `tool${index}`,
          input: { path: `src/file${index}.ts` },
        })),
      );
      if (step.approval) push('user', [{ type: 'text', text: 'approved' }]);
      const chunks = step.split ? callIds.map((callId) => [callId]) : [callIds];
      for (const chunk of chunks)
        push(
          step.resultRole,
          chunk.map((callId) => resultPart(callId, step)),
        );
    }
  }
  return messages;
}

function resultPart(callId: string, step: ToolStep): PartInput {
  const text = `ok ${callId} ${filler(step.long ? 1500 : step.words, 'out')}\nlast line of ${callId}`;
  const output = step.image
    ? [
        { type: 'text' as const, text },
        { type: 'image' as const, source: { kind: 'base64' as const, mediaType: 'image/png', data: PIXEL } },
      ]
    : text;
  return { type: 'tool-result', callId, output, ...(step.isError ? { isError: true } : {}) };
}

/** Freezes a value and everything inside it, so a mutation throws in strict mode. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
