import { originalHandleNote, type JsonValue, type Message, type ToolCallPart } from '@ctxhost/core';

/** What the agent was doing when its turns were summarized away, re-injected beside the summary. */
export interface WorkingState {
  /** The first user request (the task), when it was summarized away. */
  task?: string;
  /** The newest user request, when it was summarized away: the one open ask. */
  currentRequest?: string;
  /** The latest todo list (TodoWrite-style tools), when its call was summarized away. */
  todos?: string[];
  /** Paths of the files touched most recently in the summarized span, newest first. */
  recentFiles: string[];
  /** Facts of the summarized span a model summary did not name (see `missingFacts`). */
  notInSummary?: { constraints: string[]; failed: string[]; files: string[] };
}

/** Marks the start of the working-state block in a summary message; a later compaction strips it before updating the summary. */
export const WORKING_STATE_HEADING = '## Working state at compaction';
const TASK_HEADING = "### Task (the user's first request, verbatim)\n";
const CURRENT_REQUEST_HEADING =
  '### Current request (verbatim; the one open ask — earlier requests that were answered are done)\n';
const TODO_HEADING = '### Todo list (latest)\n';
const FILES_HEADING = '### Files touched most recently\n';
const NOT_IN_SUMMARY_HEADING = '### Also in the summarized turns (not named in the summary above)\n';
const SECTION_HEADINGS = [TASK_HEADING, CURRENT_REQUEST_HEADING, TODO_HEADING, FILES_HEADING, NOT_IN_SUMMARY_HEADING];
const MAX_FILES = 12;
const MAX_QUOTE_CHARS = 8_000;
const TODO_TOOL = /todo/i;
const PATH_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'filename', 'file'];

/**
 * The text of a user message that carries a request: not only tool results, not a summary, and not a notice
 * ctxhost itself added (the preemptive notice is a user message, but the person never asked anything in it).
 */
export function requestText(message: Message): string | undefined {
  if (message.role !== 'user' || message.meta?.summary !== undefined || message.meta?.notice !== undefined)
    return undefined;
  const text = message.parts
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n')
    .trim();
  return text.length > 0 ? text : undefined;
}

/** Indexes of the first and the newest user messages that carry text. */
export function requestIndexes(messages: readonly Message[]): { first: number; newest: number } {
  let first = -1;
  let newest = -1;
  messages.forEach((message, index) => {
    if (requestText(message) === undefined) return;
    if (first === -1) first = index;
    newest = index;
  });
  return { first, newest };
}

/**
 * The working state of a compaction that keeps `messages[0, headEnd)` and
 * `messages[tailStart, end)` and summarizes what is between: only what the
 * model can no longer see is re-injected.
 */
export function collectWorkingState(messages: readonly Message[], headEnd: number, tailStart: number): WorkingState {
  const summarized = (index: number) => index >= headEnd && index < tailStart;
  const { first, newest } = requestIndexes(messages);
  const state: WorkingState = { recentFiles: [] };
  if (first >= 0 && summarized(first)) state.task = quote(messages[first]!);
  if (newest >= 0 && newest !== first && summarized(newest)) state.currentRequest = quote(messages[newest]!);
  else if (newest >= 0 && newest === first && summarized(newest)) state.currentRequest = state.task!;
  const todoCall = lastCall(messages, 0, messages.length, (call) => TODO_TOOL.test(call.name));
  if (todoCall !== undefined && summarized(todoCall.index)) state.todos = renderTodos(todoCall.call.input);
  const files: string[] = [];
  for (let index = tailStart - 1; index >= headEnd && files.length < MAX_FILES; index--) {
    for (const part of [...messages[index]!.parts].reverse()) {
      if (part.type !== 'tool-call') continue;
      const path = pathOf(part.input);
      if (path !== undefined && !files.includes(path)) files.push(path);
    }
  }
  state.recentFiles = files.slice(0, MAX_FILES);
  return state;
}

/** The block appended to the summary: empty when nothing was summarized away. */
export function renderWorkingState(state: WorkingState): string {
  const sections: string[] = [];
  if (state.task !== undefined && state.task !== state.currentRequest) sections.push(`${TASK_HEADING}${state.task}`);
  if (state.currentRequest !== undefined) sections.push(`${CURRENT_REQUEST_HEADING}${state.currentRequest}`);
  if (state.todos !== undefined) sections.push(`${TODO_HEADING}${state.todos.join('\n')}`);
  if (state.recentFiles.length > 0)
    sections.push(`${FILES_HEADING}${state.recentFiles.map((path) => `- ${path}`).join('\n')}`);
  const missing = state.notInSummary;
  if (missing !== undefined) {
    const lines = [
      ...missing.constraints.map((item) => `- user constraint: ${item}`),
      ...missing.failed.map((item) => `- failed: ${item}`),
      ...(missing.files.length > 0 ? [`- files: ${missing.files.join(', ')}`] : []),
    ];
    if (lines.length > 0) sections.push(`${NOT_IN_SUMMARY_HEADING}${lines.join('\n')}`);
  }
  return sections.length === 0 ? '' : `${WORKING_STATE_HEADING}\n${sections.join('\n\n')}`;
}

/**
 * The requests an earlier summary quoted in its working state (`summaryText`: the summary's own text): they were
 * summarized away before, so no message of a later compaction holds them.
 */
export function carriedRequests(summaryText: string): Pick<WorkingState, 'task' | 'currentRequest'> {
  const at = summaryText.lastIndexOf(WORKING_STATE_HEADING);
  if (at < 0) return {};
  const block = summaryText.slice(at);
  const task = sectionText(block, TASK_HEADING);
  const currentRequest = sectionText(block, CURRENT_REQUEST_HEADING);
  return { ...(task === undefined ? {} : { task }), ...(currentRequest === undefined ? {} : { currentRequest }) };
}

/**
 * The working state with the requests a summary in the summarized span carried forward: its current request is the
 * open ask when no request came after that summary, and its task is the task when the first request is not in the
 * prompt any more. Without this a second compaction of the same turn named an older request as the open one and
 * the newest was gone.
 */
export function withCarriedRequests(
  state: WorkingState,
  messages: readonly Message[],
  headEnd: number,
  tailStart: number,
  summaryTextOf: (message: Message) => string | undefined,
): WorkingState {
  const { first, newest } = requestIndexes(messages);
  for (let index = tailStart - 1; index >= Math.max(headEnd, newest + 1); index--) {
    const text = summaryTextOf(messages[index]!);
    if (text === undefined) continue;
    const carried = carriedRequests(text);
    if (carried.currentRequest === undefined) return state;
    // No Task section beside the current request: it was the task too (the first request is written once).
    const task = first >= 0 && first < index ? state.task : (carried.task ?? carried.currentRequest);
    return { ...state, currentRequest: carried.currentRequest, ...(task === undefined ? {} : { task }) };
  }
  return state;
}

function sectionText(block: string, heading: string): string | undefined {
  const at = block.indexOf(heading);
  if (at < 0) return undefined;
  const start = at + heading.length;
  const ends = SECTION_HEADINGS.map((next) => block.indexOf(`\n\n${next}`, start)).filter((end) => end >= 0);
  const text = block.slice(start, ends.length === 0 ? undefined : Math.min(...ends)).trim();
  return text.length > 0 ? text : undefined;
}

function quote(message: Message): string {
  const text = requestText(message) ?? '';
  if (text.length <= MAX_QUOTE_CHARS) return text;
  return `${text.slice(0, MAX_QUOTE_CHARS)}\n[… ${text.length - MAX_QUOTE_CHARS} more characters: ${originalHandleNote(message.id)}]`;
}

function lastCall(
  messages: readonly Message[],
  from: number,
  to: number,
  match: (call: ToolCallPart) => boolean,
): { call: ToolCallPart; index: number } | undefined {
  for (let index = to - 1; index >= from; index--) {
    const call = [...messages[index]!.parts]
      .reverse()
      .find((part): part is ToolCallPart => part.type === 'tool-call' && match(part));
    if (call !== undefined) return { call, index };
  }
  return undefined;
}

function renderTodos(input: JsonValue): string[] {
  const todos = typeof input === 'object' && input !== null && !Array.isArray(input) ? input['todos'] : undefined;
  if (!Array.isArray(todos)) return [`- ${JSON.stringify(input).slice(0, 2_000)}`];
  return todos.map((todo) => {
    if (typeof todo !== 'object' || todo === null || Array.isArray(todo)) return `- ${JSON.stringify(todo)}`;
    const content = String(todo['content'] ?? todo['title'] ?? todo['text'] ?? JSON.stringify(todo));
    const status = String(todo['status'] ?? 'pending');
    const box = status === 'completed' || status === 'done' ? '[x]' : '[ ]';
    return `- ${box} ${content}${status === 'in_progress' ? ' (in progress)' : ''}`;
  });
}

function pathOf(input: JsonValue): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  for (const key of PATH_KEYS) {
    const value = input[key];
    if (typeof value === 'string' && value.length > 0 && value.length < 500) return value;
  }
  return undefined;
}
