/**
 * The opencode plugin's rehydration on a long session: the session's messages
 * stored as opencode stores them (user texts, assistant texts and tool parts
 * with their outputs), in a scratch project folder holding each file the way
 * the record last showed it (tool paths moved into that folder). Wherever a
 * message starts with 80% of the window in view (ctxhost's preemptive
 * threshold between turns; opencode compacts between the steps of a tool loop
 * too), a compaction is added as opencode
 * writes it (a compaction marker, then the summary: ctxhost's extractive
 * summary stands in for opencode's model-written one; the newest messages
 * within a quarter of the window stay in view after it, as opencode keeps them), and the
 * plugin's reviewer checks it as it does inside opencode: probes, ledger, and
 * the files re-read from the project folder through the `rehydrate` hook.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { recordedFiles } from '@ctxhost/cli';
import { extractiveSummary } from '@ctxhost/compressor';
import {
  createHost,
  createMemoryStore,
  pathArgument,
  type CompactionReport,
  type JsonValue,
  type Message,
  type PartialConfig,
} from '@ctxhost/core';
import {
  createMirrorRegistry,
  createOpencodeCompactionReviewer,
  readProjectFiles,
  toCtxhostMessages,
  type OpencodeEntry,
} from '@ctxhost/opencode/bridge';
import type { Part as OpencodePart } from '@opencode-ai/sdk';

const SESSION = 'ses_bench';
/** ctxhost's preemptive threshold; within a long tool loop, opencode's own compaction between steps stands in for it. */
const THRESHOLD = 0.8;
const TAIL_SHARE = 0.25;
const MAX_TAIL_TOKENS = 15_000;
const SILENT = { debug() {}, info() {}, warn() {}, error() {} };

/** Every compaction of one session at `window`, as the opencode plugin checks and completes it. */
export async function opencodeCompactionsOf(
  messages: readonly Message[],
  window: number,
  rehydrate = true,
): Promise<CompactionReport[]> {
  const project = await mkdtemp(join(tmpdir(), 'ctxhost-opencode-rehydration-'));
  try {
    const moved = await projectFolderFor(messages, project);
    const config: PartialConfig = rehydrate
      ? {}
      : { fidelity: { rehydration: { enabled: false, maxTokens: 0, maxFiles: 0 } } };
    const host = createHost({ config, store: createMemoryStore(), logger: SILENT, cwd: project, enginePlugin: false });
    host.hooks.rehydrate.tapPromise('opencode-rehydrate', async ({ paths }) => readProjectFiles(project, paths));
    (await host.session(SESSION)).contextWindow = window;
    const stored: OpencodeEntry[] = [];
    const reviewer = createOpencodeCompactionReviewer(
      host,
      { messages: async () => stored.slice() },
      createMirrorRegistry(),
    );
    const reports: CompactionReport[] = [];
    let inView = 0;
    let recent: InView[] = [];
    for (const entry of opencodeEntries(messages, moved)) {
      if (inView >= window * THRESHOLD) {
        const tail = keptTail(recent, Math.min(MAX_TAIL_TOKENS, Math.floor(window * TAIL_SHARE)));
        const head = recent.slice(0, recent.length - tail.length);
        const summaryId = summarize(
          stored,
          head.flatMap((item) => item.messages),
          tail[0]?.entry.info.id,
        );
        const reviewed = await reviewer.review(SESSION, summaryId);
        if (reviewed === undefined) throw new Error(`the reviewer did not check summary ${summaryId}`);
        reports.push(reviewed.report);
        inView = reviewed.report.tokensAfter;
        recent = tail;
      }
      stored.push(entry);
      const converted = toCtxhostMessages(entry.info, entry.parts, new Map()).messages;
      const tokens = host.counter.countAll(converted);
      recent.push({ entry, messages: converted, tokens });
      inView += tokens;
    }
    await reviewer.settled();
    await host.dispose();
    return reports;
  } finally {
    await rm(project, { recursive: true, force: true });
  }
}

/** Writes each file the record showed into `project`; returns where each recorded path now lives. */
async function projectFolderFor(messages: readonly Message[], project: string): Promise<Map<string, string>> {
  const paths = new Set<string>();
  for (const message of messages)
    for (const part of message.parts) {
      const path = part.type === 'tool-call' ? pathArgument(part.input) : undefined;
      if (path !== undefined) paths.add(path);
    }
  const moved = new Map<string, string>();
  for (const path of paths) {
    const inside = normalize(path.replace(/^\/+/, ''));
    if (inside.startsWith('..')) continue;
    moved.set(path, join(project, inside));
  }
  // Deepest first: a path the record read as a directory listing stays the directory its files need.
  const shown = recordedFiles(messages, [...moved.keys()]).sort((a, b) => b.path.length - a.path.length);
  for (const file of shown) {
    const target = moved.get(file.path)!;
    try {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.content);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EISDIR' && code !== 'ENOTDIR' && code !== 'EEXIST') throw error;
    }
  }
  return moved;
}

interface InView {
  entry: OpencodeEntry;
  messages: Message[];
  tokens: number;
}

/** opencode 1.18 keeps the newest messages within a quarter of the window (15,000 tokens at most) after its summary. */
function keptTail(recent: readonly InView[], budget: number): InView[] {
  let tokens = 0;
  let start = recent.length;
  while (start > 1 && tokens + recent[start - 1]!.tokens <= budget) tokens += recent[--start]!.tokens;
  return recent.slice(start);
}

/** A compaction as opencode stores it: a user message with a `compaction` part, then the summary answering it. */
function summarize(stored: OpencodeEntry[], span: readonly Message[], tailStartId: string | undefined): string {
  const n = stored.length;
  const markerId = `msg_${String(n).padStart(6, '0')}_compaction`;
  const summaryId = `msg_${String(n).padStart(6, '0')}_summary`;
  stored.push(
    entry(markerId, 'user', [
      { type: 'compaction', auto: true, ...(tailStartId === undefined ? {} : { tail_start_id: tailStartId }) },
    ]),
    entry(summaryId, 'assistant', [{ type: 'text', text: extractiveSummary(span) }], {
      summary: true,
      parentID: markerId,
    }),
  );
  return summaryId;
}

/** The session's messages as opencode stores them: tool results go back into the tool parts of the call. */
function opencodeEntries(messages: readonly Message[], moved: ReadonlyMap<string, string>): OpencodeEntry[] {
  const entries: OpencodeEntry[] = [];
  const tools = new Map<string, Record<string, unknown>>();
  let lastUser = 'msg_start';
  messages.forEach((message, index) => {
    const id = `msg_${String(index).padStart(6, '0')}`;
    if (message.role === 'system') return;
    const parts: Record<string, unknown>[] = [];
    for (const part of message.parts) {
      if (part.type === 'text' && message.role !== 'tool') parts.push({ type: 'text', text: part.text });
      if (part.type === 'tool-call') {
        const tool = {
          type: 'tool',
          callID: part.callId,
          tool: part.name,
          state: { status: 'completed', input: movedInput(part.input, moved), output: '', title: '', metadata: {} },
        };
        tools.set(part.callId, tool);
        parts.push(tool);
      }
      if (part.type === 'tool-result') {
        const tool = tools.get(part.callId);
        const output = typeof part.output === 'string' ? part.output : JSON.stringify(part.output);
        if (tool !== undefined)
          tool['state'] = part.isError
            ? { status: 'error', input: (tool['state'] as { input: unknown }).input, error: output }
            : { ...(tool['state'] as object), output };
      }
    }
    if (parts.length === 0) return;
    if (message.role === 'user') lastUser = id;
    entries.push(entry(id, message.role === 'user' ? 'user' : 'assistant', parts, { parentID: lastUser }));
  });
  return entries;
}

function movedInput(input: JsonValue, moved: ReadonlyMap<string, string>): JsonValue {
  const path = pathArgument(input);
  const target = path === undefined ? undefined : moved.get(path);
  if (target === undefined || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, value === path ? target : value]));
}

function entry(
  id: string,
  role: 'user' | 'assistant',
  parts: Record<string, unknown>[],
  extra: { summary?: boolean; parentID?: string } = {},
): OpencodeEntry {
  const time = { created: 0, completed: 0 };
  const info =
    role === 'user'
      ? { id, sessionID: SESSION, role, time, agent: 'build', model: { providerID: 'anthropic', modelID: 'bench' } }
      : {
          id,
          sessionID: SESSION,
          role,
          time,
          parentID: extra.parentID ?? '',
          modelID: 'bench',
          providerID: 'anthropic',
          mode: 'build',
          path: { cwd: '', root: '' },
          cost: 0,
          tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
          finish: 'stop',
          ...(extra.summary === true ? { summary: true } : {}),
        };
  return {
    info,
    parts: parts.map((part, at) => ({ id: `${id}.${at}`, sessionID: SESSION, messageID: id, ...part }) as OpencodePart),
  };
}
