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
  if (state.task !== undefined && state.task !== state.currentRequest)
    sections.push(`### Task (the user's first request, verbatim)\n${state.task}`);
  if (state.currentRequest !== undefined)
    sections.push(
      `### Current request (verbatim; the one open ask — earlier requests that were answered are done)\n${state.currentRequest}`,
    );
  if (state.todos !== undefined) sections.push(`### Todo list (latest)\n${state.todos.join('\n')}`);
  if (state.recentFiles.length > 0)
    sections.push(`### Files touched most recently\n${state.recentFiles.map((path) => `- ${path}`).join('\n')}`);
  const missing = state.notInSummary;
  if (missing !== undefined) {
    const lines = [
      ...missing.constraints.map((item) => `- user constraint: ${item}`),
      ...missing.failed.map((item) => `- failed: ${item}`),
      ...(missing.files.length > 0 ? [`- files: ${missing.files.join(', ')}`] : []),
    ];
    if (lines.length > 0)
      sections.push(`### Also in the summarized turns (not named in the summary above)\n${lines.join('\n')}`);
  }
  return sections.length === 0 ? '' : `${WORKING_STATE_HEADING}\n${sections.join('\n\n')}`;
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
