import type { Probe, ProbeKind } from './probe.js';

/** The heading of the facts added beside a summary that did not name them. */
export const MISSED_HEADING =
  '## Also in the replaced turns (checked by ctxhost; the summary above does not name these)';

const LABEL: Record<ProbeKind, string> = {
  file: 'file',
  command: 'ran',
  error: 'failed',
  constraint: 'user said',
  ask: 'open ask',
  decision: 'decided',
  identifier: 'identifier',
};

/**
 * The missed probes as lines beside the summary, within `maxTokens`: the
 * user's words first (asks, constraints), then errors, files, commands,
 * decisions, identifiers. What does not fit is counted in a last line and
 * returned in `left`.
 */
export function renderMissed(
  missed: readonly Probe[],
  maxTokens: number,
  count: (text: string) => number,
): { text: string; left: Probe[] } {
  const order: ProbeKind[] = ['ask', 'constraint', 'error', 'file', 'command', 'decision', 'identifier'];
  const sorted = order.flatMap((kind) => missed.filter((probe) => probe.kind === kind).reverse());
  const lines: string[] = [];
  const left: Probe[] = [];
  let used = count(MISSED_HEADING) + 20;
  for (const probe of sorted) {
    const line = `- ${LABEL[probe.kind]}: ${probe.text}`;
    const cost = count(line) + 1;
    if (used + cost > maxTokens) {
      left.push(probe);
      continue;
    }
    used += cost;
    lines.push(line);
  }
  if (left.length > 0)
    lines.push(`- … ${left.length} more facts over this list's budget (read the originals by handle)`);
  return { text: lines.length === 0 ? '' : `${MISSED_HEADING}\n${lines.join('\n')}`, left };
}
