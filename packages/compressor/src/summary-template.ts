/** The structured summary's sections, in order (seeds 000–002). */
export const SUMMARY_SECTIONS = [
  'Goal',
  'Constraints & Preferences',
  'Progress',
  'Key Decisions',
  'Relevant Files',
  'Next Steps',
  'Critical Context',
] as const;

export const SUMMARY_TEMPLATE = `## Goal
[What the user is trying to accomplish]
## Constraints & Preferences
[User preferences, coding style, constraints, important decisions]
## Progress
### Done
[Completed work — specific file paths, commands run, results]
### In Progress
[Work currently underway]
### Blocked
[Any blockers or issues encountered]
## Key Decisions
[Important technical decisions and why]
## Relevant Files
[Files read, modified, or created — with brief note on each]
## Next Steps
[What needs to happen next]
## Critical Context
[Specific values, error messages, configuration details]`;

/**
 * Instructions for the summarizer: a fresh summary, or an update of the
 * previous one. Guarded against stale work: finished items are marked done,
 * and the newest user request is named as the one open ask.
 */
export function summaryInstructions(
  budgetTokens: number,
  hasPrevious: boolean,
  currentRequest?: string,
  steering: { focus?: string; instructions?: readonly string[] } = {},
): string {
  const task = hasPrevious
    ? 'Update the previous summary with the conversation turns below. Do not start again: move items from In Progress to Done when they were finished, add new progress, and drop items that are obsolete or were already completed so they are not acted on again.'
    : 'Summarize the conversation turns below so an assistant can continue the work without them.';
  const openAsk =
    currentRequest === undefined
      ? 'Only the newest user request is still open: list earlier requests that were answered under Done, never under Next Steps.'
      : `Only the newest user request is still open; list earlier requests that were answered under Done, never under Next Steps. The newest request is:\n<current-request>\n${currentRequest}\n</current-request>`;
  const focus =
    steering.focus === undefined
      ? ''
      : `\nFocus the summary on: ${steering.focus}. Keep everything about it in detail; shorten the rest.`;
  const extra = (steering.instructions ?? []).map((instruction) => `\n${instruction}`).join('');
  return `${task}\n${openAsk}${focus}${extra}\nUse exactly these sections, keep specific file paths, commands, values and error messages, never copy secrets (keys, tokens, passwords: write [REDACTED]), and stay under ${budgetTokens} tokens.\n\n${SUMMARY_TEMPLATE}`;
}
