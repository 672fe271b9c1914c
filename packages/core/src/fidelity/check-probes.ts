import type { Message } from '../model/message.js';
import { FIDELITY_LIMITS, type CompactionFidelity, type Probe, type ProbeKind } from './probe.js';
import { outputText } from './span-facts.js';
import { createTermIndex, type TermIndex } from './text-terms.js';

/** Whether what the model sees names the probe's fact. */
export function probeFound(probe: Probe, index: TermIndex): boolean {
  if (probe.kind === 'file' && !probe.exact.every((path) => index.hasPath(path))) return false;
  if (probe.kind !== 'file' && !probe.exact.every((name) => index.hasIdentifier(name))) return false;
  if (probe.words.length === 0) return true;
  const present = probe.words.filter((word) => index.hasWord(word)).length;
  return present >= Math.ceil(probe.quorum * probe.words.length);
}

/** The probes `messages` do not answer. One index of the messages, then each probe in time of its own size. */
export function missedProbes(probes: readonly Probe[], messages: readonly Message[]): Probe[] {
  if (probes.length === 0) return [];
  const index = createTermIndex(messageTexts(messages));
  return probes.filter((probe) => !probeFound(probe, index));
}

/** Every text the model reads in a message: text, tool inputs, tool outputs. */
export function* messageTexts(messages: readonly Message[]): Generator<string> {
  for (const message of messages)
    for (const part of message.parts) {
      if (part.type === 'text') yield part.text;
      else if (part.type === 'tool-call') yield JSON.stringify(part.input);
      else if (part.type === 'tool-result') yield outputText(part);
    }
}

/** The fidelity a report carries: `candidateMissed` by the engine's result, `stillMissed` after ctxhost added what it could. */
export function fidelityOf(
  probes: readonly Probe[],
  candidateMissed: readonly Probe[],
  stillMissed: readonly Probe[],
): CompactionFidelity {
  const share = (missed: number) =>
    probes.length === 0 ? 1 : Math.round(((probes.length - missed) / probes.length) * 1000) / 1000;
  const byKind: CompactionFidelity['byKind'] = {};
  const missedSet = new Set(candidateMissed);
  const stillSet = new Set(stillMissed);
  for (const probe of probes) {
    const entry = (byKind[probe.kind] ??= { probes: 0, found: 0, kept: 0 });
    entry.probes++;
    if (!missedSet.has(probe)) entry.found++;
    if (!stillSet.has(probe)) entry.kept++;
  }
  return {
    score: share(stillMissed.length),
    candidateScore: share(candidateMissed.length),
    probes: probes.length,
    byKind,
    missed: [...candidateMissed]
      .reverse()
      .slice(0, FIDELITY_LIMITS.missedInReport)
      .map((probe) => ({ kind: probe.kind, text: probe.text })),
    added: candidateMissed.length - stillMissed.length,
  };
}

/** Probe kinds in the order a reader scans them. */
export const PROBE_KIND_LABELS: Record<ProbeKind, string> = {
  file: 'files',
  command: 'commands run',
  error: 'errors and exit codes',
  constraint: 'user constraints and corrections',
  ask: 'open ask',
  decision: 'decisions',
  identifier: 'identifiers',
};
