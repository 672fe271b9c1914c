import { createTermIndex, PROBE_KINDS, probeFound, type Message, type Probe, type ProbeKind } from '@ctxhost/core';

/** One question per kind of fact: it names the kind, never the fact, so an answer cannot copy it from the question. */
export const PROBE_QUESTIONS: Record<ProbeKind, string> = {
  file: 'Which files have been created, changed or named so far? Give each full path.',
  command: 'Which commands have been run? Give each command line.',
  error: 'Which commands or steps failed, and with what exit code and error line?',
  constraint: 'What constraints, preferences and corrections has the user stated? Quote them.',
  ask: "What is the user's latest request?",
  decision: 'What decisions have been announced?',
  identifier: 'Which identifiers (functions, classes, variables, options, keys) have come up?',
};

const PREAMBLE =
  'Before going on, answer these questions from the conversation above only. Do not call any tool. Answer each in a numbered list, naming exact paths, commands and identifiers.';

/** The user message that asks the model, after the compaction, the questions for the kinds of fact the probes cover. */
export function probeQuestionMessage(probes: readonly Probe[], id: string): Message {
  const kinds = PROBE_KINDS.filter((kind) => probes.some((probe) => probe.kind === kind));
  const questions = kinds.map((kind, index) => `${index + 1}. ${PROBE_QUESTIONS[kind]}`);
  return { id, role: 'user', parts: [{ id: `${id}.0`, type: 'text', text: [PREAMBLE, ...questions].join('\n') }] };
}

/** The probes an answer names: paths and identifiers exactly, sentences by a quorum of their words (as the fidelity check reads a summary). */
export function probesAnswered(probes: readonly Probe[], answer: string): Probe[] {
  const index = createTermIndex([answer]);
  return probes.filter((probe) => probeFound(probe, index));
}
