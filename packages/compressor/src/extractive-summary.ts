import { pathsIn, type Message, type ToolCallPart, type ToolResultPart } from '@ctxhost/core';

/**
 * A summary filled from the messages themselves, in the same template, for
 * when the summarizer fails or none is configured: nothing is dropped without
 * a summary. It keeps the user's requests and constraints, every file path
 * read or written, the commands run and which failed, error messages, and the
 * decisions the assistant stated. Items of a previous summary's Done list are kept.
 * `currentRequest`: the newest request's text, or `{ kept: true }` when the messages
 * after the summary hold it verbatim (then it is pointed to, not repeated).
 */
export function extractiveSummary(
  messages: readonly Message[],
  previousSummary?: string,
  currentRequest?: string | { kept: true },
): string {
  const facts = collectFacts(messages);
  const previous = previousSummary === undefined ? undefined : parseSections(previousSummary);
  const list = (items: readonly string[], empty: string) =>
    items.length === 0 ? `- ${empty}` : items.map((item) => `- ${item}`).join('\n');
  const goal = previous?.get('Goal')?.trim() || facts.requests[0] || 'Continue the task in progress.';
  const done = unique([...bulletLines(previous?.get('Done')), ...facts.succeeded]);
  // Stale-work guard: only the newest request is open; the span's own last request may already be answered.
  const open =
    currentRequest === undefined
      ? facts.requests.slice(-1)
      : typeof currentRequest === 'string'
        ? [currentRequest.trim().split('\n')[0]!.slice(0, 300)]
        : [KEPT_REQUEST];
  return [
    `## Goal\n${goal}`,
    `## Constraints & Preferences\n${list(unique([...bulletLines(previous?.get('Constraints & Preferences')), ...facts.constraints]).slice(0, 12), 'none stated')}`,
    `## Progress\n### Done\n${list(done.slice(-40), 'nothing recorded')}\n### In Progress\n${list(open, 'nothing recorded')}\n### Blocked\n${list(facts.failed.slice(-10), 'nothing')}`,
    `## Key Decisions\n${list(unique([...bulletLines(previous?.get('Key Decisions')), ...facts.decisions]).slice(-12), 'none stated')}`,
    `## Relevant Files\n${list(unique([...bulletLines(previous?.get('Relevant Files')), ...facts.files]), 'none mentioned')}`,
    `## Next Steps\n${list(open, 'continue from the most recent messages')}`,
    `## Critical Context\n${list(unique([...facts.failed.map((f) => `failed: ${f}`), ...facts.errors]).slice(-20), 'none')}`,
    `(extractive summary of ${messages.length} messages: the summarizer was not available)`,
  ].join('\n\n');
}

/** The open ask when the newest request follows the summary verbatim. */
export const KEPT_REQUEST = 'the newest user request, verbatim in the messages after this summary';

/**
 * What a model summary left out that the extractive one would keep: the user's
 * stated constraints, the commands that failed, the file paths touched — each
 * only when the summary does not name it. Appended beside a model summary so a
 * summarizer that drops them does not make the compaction silently lossy.
 */
export function missingFacts(
  messages: readonly Message[],
  summary: string,
): { constraints: string[]; failed: string[]; files: string[] } {
  const facts = collectFacts(messages);
  const absent = (items: readonly string[], limit: number) =>
    unique(items)
      .filter((item) => !summary.includes(item))
      .slice(-limit);
  return {
    constraints: absent(facts.constraints, 12),
    failed: absent(facts.failed, 15),
    files: absent(facts.files, 40),
  };
}

interface Facts {
  requests: string[];
  constraints: string[];
  decisions: string[];
  files: string[];
  succeeded: string[];
  failed: string[];
  errors: string[];
}

const CONSTRAINT = /\b(must|should|don't|do not|never|always|prefer|please|make sure|without)\b/i;
const DECISION = /\b(I'll|I will|I decided|decided to|going to|let's|instead|switch(?:ed)? to|chose)\b/i;
const ERROR_LINE = /^.*\b(error|Error|ERROR|failed|FAILED|Traceback|Exception|panic|cannot|not found)\b.*$/m;

function collectFacts(messages: readonly Message[]): Facts {
  const facts: Facts = {
    requests: [],
    constraints: [],
    decisions: [],
    files: [],
    succeeded: [],
    failed: [],
    errors: [],
  };
  const calls = new Map<string, ToolCallPart>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'text') collectText(facts, message.role, part.text);
      else if (part.type === 'tool-call') {
        calls.set(part.callId, part);
        facts.files.push(...pathsIn(JSON.stringify(part.input)));
      } else if (part.type === 'tool-result') collectResult(facts, part, calls.get(part.callId));
    }
  }
  facts.files = unique(facts.files);
  return facts;
}

function collectText(facts: Facts, role: Message['role'], text: string): void {
  facts.files.push(...pathsIn(text));
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 3 && s.length < 400);
  if (role === 'user') {
    const first = text.trim().split('\n')[0]?.slice(0, 300);
    if (first) facts.requests.push(first);
    facts.constraints.push(...sentences.filter((s) => CONSTRAINT.test(s)));
  } else if (role === 'assistant') facts.decisions.push(...sentences.filter((s) => DECISION.test(s)));
}

function collectResult(facts: Facts, part: ToolResultPart, call: ToolCallPart | undefined): void {
  const output =
    typeof part.output === 'string'
      ? part.output
      : part.output.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  facts.files.push(...pathsIn(output.slice(0, 20_000)));
  const action = call === undefined ? `tool result ${part.callId}` : describeCall(call);
  const errorLine = ERROR_LINE.exec(output)?.[0].trim().slice(0, 200);
  if (
    part.isError === true ||
    (errorLine !== undefined && /\b(error|failed|Traceback|Exception)\b/i.test(output.slice(-2000)))
  ) {
    facts.failed.push(action);
    if (errorLine) facts.errors.push(errorLine);
  } else facts.succeeded.push(action);
}

function describeCall(call: ToolCallPart): string {
  const input = call.input;
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const main =
      input['command'] ?? input['cmd'] ?? input['file_path'] ?? input['path'] ?? input['pattern'] ?? input['query'];
    if (typeof main === 'string') return `${call.name}: ${main.replace(/\s+/g, ' ').slice(0, 200)}`;
  }
  return `${call.name}: ${JSON.stringify(input).slice(0, 120)}`;
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items.map((item) => item.trim()).filter((item) => item.length > 0))];
}

function parseSections(summary: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const match of summary.matchAll(/^#{2,3} (.+)\n([\s\S]*?)(?=^#{2,3} |(?![\s\S]))/gm))
    sections.set(match[1]!.trim(), match[2]!.trim());
  return sections;
}

function bulletLines(section: string | undefined): string[] {
  return (section ?? '')
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2))
    .filter((line) => !/^(none|nothing)/.test(line));
}
