import type { Ledger, LedgerEntry, LedgerFolded, LedgerKind } from './ledger.js';

/** The heading of the ledger block; a summarizer never sees the block (it is rebuilt from `meta.ledger`). */
export const LEDGER_HEADING = '## Ledger (what was done; kept verbatim, never summarized)';

/** Folded first when over budget: the oldest commands, then files, then decisions; the user's constraints last. */
const FOLD_ORDER: readonly LedgerKind[] = ['command', 'file', 'decision', 'constraint'];

const SECTIONS: readonly { kind: LedgerKind; title: string }[] = [
  { kind: 'constraint', title: "The user's constraints and corrections" },
  { kind: 'file', title: 'Files written (oldest first)' },
  { kind: 'command', title: 'Commands run (oldest first)' },
  { kind: 'decision', title: 'Decisions announced' },
];

export function ledgerLine(entry: LedgerEntry): string {
  switch (entry.kind) {
    case 'file':
      return `- ${entry.path} (${entry.tool}${entry.writes > 1 ? ` ×${entry.writes}` : ''}${entry.hash === undefined ? '' : `, ${entry.hash}`})`;
    case 'command': {
      const status = entry.exitCode !== undefined ? `exit ${entry.exitCode}` : entry.failed ? 'failed' : 'ok';
      return `- \`${entry.command}\` → ${status}${entry.runs > 1 ? ` (run ${entry.runs}×)` : ''}`;
    }
    default:
      return `- ${entry.text}`;
  }
}

/**
 * The ledger within `maxTokens`: the oldest entries are folded into counts
 * (in FOLD_ORDER) until the rendered block fits, and the counts are printed.
 * Each line is measured once, so folding is linear in the entries.
 */
export function fitLedger(ledger: Ledger, maxTokens: number, count: (text: string) => number): Ledger {
  const costs = ledger.entries.map((entry) => count(ledgerLine(entry)) + 1);
  let total = costs.reduce((sum, cost) => sum + cost, count(LEDGER_HEADING) + 60);
  const folded: LedgerFolded = { ...ledger.folded };
  const gone = new Set<number>();
  for (const kind of FOLD_ORDER) {
    for (let index = 0; index < ledger.entries.length && total > maxTokens; index++) {
      const entry = ledger.entries[index]!;
      if (entry.kind !== kind) continue;
      gone.add(index);
      total -= costs[index]!;
      if (entry.kind === 'command') {
        folded.command += entry.runs;
        if (entry.failed) folded.failedCommands += 1;
      } else folded[entry.kind] += 1;
    }
  }
  return { entries: ledger.entries.filter((_, index) => !gone.has(index)), folded };
}

/** The ledger block the model reads after a compaction; empty for an empty ledger. */
export function renderLedger(ledger: Ledger): string {
  const sections: string[] = [];
  for (const { kind, title } of SECTIONS) {
    const lines = ledger.entries.filter((entry) => entry.kind === kind).map(ledgerLine);
    if (lines.length > 0) sections.push(`${title}:\n${lines.join('\n')}`);
  }
  const { file, command, failedCommands, constraint, decision } = ledger.folded;
  const counts = [
    file > 0 ? `${file} files written` : '',
    command > 0 ? `${command} command runs (${failedCommands} of the commands failed)` : '',
    constraint > 0 ? `${constraint} constraints` : '',
    decision > 0 ? `${decision} decisions` : '',
  ].filter((item) => item.length > 0);
  if (counts.length > 0)
    sections.push(`Older entries folded into counts to fit the ledger's budget: ${counts.join(', ')}.`);
  return sections.length === 0 ? '' : `${LEDGER_HEADING}\n${sections.join('\n\n')}`;
}
