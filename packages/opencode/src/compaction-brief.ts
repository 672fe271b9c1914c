import { SUMMARY_TEMPLATE } from '@ctxhost/compressor';

/** One item of opencode's todo list (`GET /session/:id/todo`). */
export interface OpencodeTodo {
  content: string;
  status: string;
  priority?: string;
  id?: string;
}

export interface CompactionBriefInput {
  /** The session's todo list as opencode keeps it. */
  todos: readonly OpencodeTodo[];
  /** The user's newest request, when it stays in the history the summary covers (not when it is withdrawn to be sent again). */
  currentRequest: string | undefined;
}

/** A request longer than this is quoted by its head and tail: the summary has a budget too. */
export const REQUEST_QUOTE_CHARS = 4_000;

/**
 * ctxhost's brief, added to opencode's summary prompt
 * (`experimental.session.compacting`): the structured sections ctxhost's own
 * summaries use, the user's newest request quoted as the one open ask, and the
 * todo list to copy with each item's status, so the agent that continues from
 * the summary has its working state.
 */
export function compactionBrief(input: CompactionBriefInput): string {
  const sections = [
    'ctxhost (the context manager of this session) asks for this summary in the structure below, so the work continues without the turns it replaces. Keep specific file paths, commands, values and error messages.',
    SUMMARY_TEMPLATE,
  ];
  if (input.currentRequest !== undefined && input.currentRequest.trim().length > 0) {
    sections.push(
      "## Current request\nEnd the summary with this section: the user's newest request, quoted verbatim below. It is the one open ask unless the conversation shows it was completed; earlier requests that were completed are history, not work to redo.\n" +
        `<current-request>\n${quote(input.currentRequest)}\n</current-request>`,
    );
  }
  if (input.todos.length > 0) {
    sections.push(
      `## Todo list\nCopy this todo list into the summary as it is, with each item's status (items marked completed stay completed):\n${input.todos.map(todoLine).join('\n')}`,
    );
  }
  return sections.join('\n\n');
}

function todoLine(todo: OpencodeTodo): string {
  return `- [${todo.status}] ${todo.content}${todo.priority === undefined ? '' : ` (priority ${todo.priority})`}`;
}

function quote(text: string): string {
  if (text.length <= REQUEST_QUOTE_CHARS) return text;
  const half = REQUEST_QUOTE_CHARS / 2;
  return `${text.slice(0, half)}\n[... ${(text.length - REQUEST_QUOTE_CHARS).toLocaleString('en-US')} characters of the request left out here; they stay in the session ...]\n${text.slice(-half)}`;
}
