import type { Message } from '../model/message.js';
import { FIDELITY_LIMITS, PROBE_KINDS, type Probe, type ProbeKind } from './probe.js';
import { isConstraint, isDecision, personText, sentencesOf } from './sentences.js';
import { commandArgument, commandOutcome, isWriteCall, pathArgument, resultsByCall } from './span-facts.js';
import { contentWords, identifiersIn, pathsIn, stem, wordsIn } from './text-terms.js';

const SENTENCE_QUORUM = 0.5;
const COMMAND_QUORUM = 0.6;

/**
 * The probes of a span a compaction replaces: files written and named by the
 * user, commands run, errors and exit codes, the user's constraints and
 * corrections, the open ask, decisions announced, identifiers named.
 * Deterministic and linear in the span; summaries already in the span are
 * skipped (their facts were probed when they were written). The newest
 * probes of each kind are kept, up to FIDELITY_LIMITS.perKind.
 */
export function deriveProbes(span: readonly Message[]): Probe[] {
  const found = new Map<string, Probe>();
  const add = (probe: Probe) => {
    const key = `${probe.kind}\u0000${probe.text}`;
    found.delete(key);
    found.set(key, probe);
  };
  const results = resultsByCall(span);
  let ask: Probe | undefined;
  for (const message of span) {
    if (message.meta?.summary !== undefined) continue;
    const text = personText(message);
    if (text !== undefined && message.role === 'user') {
      for (const path of pathsIn(text)) add(exactProbe('file', path));
      for (const sentence of sentencesOf(text, FIDELITY_LIMITS.sentenceChars))
        if (isConstraint(sentence)) addSentence(add, 'constraint', sentence);
      const request = sentencesOf(text, FIDELITY_LIMITS.sentenceChars)[0];
      const words = request === undefined ? [] : contentWords(request);
      if (request !== undefined && words.length >= 2)
        ask = { kind: 'ask', text: request, exact: [], words, quorum: SENTENCE_QUORUM };
    }
    if (text !== undefined && message.role === 'assistant')
      for (const sentence of sentencesOf(text, FIDELITY_LIMITS.sentenceChars))
        if (isDecision(sentence)) addSentence(add, 'decision', sentence);
    if (text !== undefined && (message.role === 'user' || message.role === 'assistant'))
      for (const name of identifiersIn(text)) add(exactProbe('identifier', name));
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      const path = pathArgument(part.input);
      if (path !== undefined && isWriteCall(part)) add(exactProbe('file', path));
      const command = commandArgument(part);
      if (command === undefined) continue;
      const outcome = commandOutcome(results.get(part.callId));
      add({ kind: 'command', text: command, exact: [], words: commandWords(command), quorum: COMMAND_QUORUM });
      if (outcome.failed) {
        const line = outcome.errorLine ?? '';
        const exit = outcome.exitCode === undefined ? 'failed' : `exit ${outcome.exitCode}`;
        add({
          kind: 'error',
          text: `${command.slice(0, 120)} → ${exit}${line.length > 0 ? `: ${line}` : ''}`,
          exact: [],
          words: [...commandWords(command).slice(0, 2), ...contentWords(line, 4)],
          quorum: SENTENCE_QUORUM,
        });
      }
    }
  }
  if (ask !== undefined) add(ask);
  return newestPerKind([...found.values()]);
}

function exactProbe(kind: ProbeKind, term: string): Probe {
  return { kind, text: term, exact: [term], words: [], quorum: 0 };
}

function addSentence(add: (probe: Probe) => void, kind: ProbeKind, sentence: string): void {
  const words = contentWords(sentence);
  if (words.length >= 2) add({ kind, text: sentence, exact: [], words, quorum: SENTENCE_QUORUM });
}

/** A command's program and arguments as words (flags and short words left out), at most five. */
function commandWords(command: string): string[] {
  const words: string[] = [];
  for (const token of command.split(/\s+/)) {
    if (token.startsWith('-') || token.length === 0) continue;
    for (const word of wordsIn(token)) {
      if (word.length < 3 || /^\d+$/.test(word)) continue;
      const stemmed = stem(word);
      if (!words.includes(stemmed)) words.push(stemmed);
    }
    if (words.length >= 5) break;
  }
  return words.slice(0, 5);
}

function newestPerKind(probes: Probe[]): Probe[] {
  const kept: Probe[] = [];
  for (const kind of PROBE_KINDS) {
    const ofKind = probes.filter((probe) => probe.kind === kind);
    kept.push(...ofKind.slice(-FIDELITY_LIMITS.perKind[kind]));
  }
  return kept;
}
