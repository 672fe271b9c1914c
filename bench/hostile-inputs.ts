/**
 * Hostile inputs, in three tables: secret forms tried → reaching a summarizer
 * (goal 0), hostile files → crashes and hangs (goal 0), and the slowest input per
 * MB per importer. Secrets are generated in each provider's real format with
 * fast-check and placed in a tool output, a tool-call input and user text; the
 * conversation goes through both summarizer paths (the compressor and
 * `@ctxhost/compaction`'s `summarization()`) with a summarizer that keeps what it
 * was sent and echoes it back as its summary.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/hostile-inputs.ts
 */
import { pathToFileURL } from 'node:url';
import { applyCompaction, summarization, triggers } from '@ctxhost/compaction';
import { createCompressor } from '@ctxhost/compressor';
import { createTokenCounter, type Message, type SummaryRequest } from '@ctxhost/core';
import { parseTranscript } from '@ctxhost/transcripts';
import fc from 'fast-check';
import type { BenchSize } from './bench.js';
import { SECRET_FORMS, secretPieces } from '../test/support/secret-forms.js';
import { PROVIDER_SECRETS } from '../test/support/provider-secrets.js';

export interface HostileRow {
  measure: string;
  tried: number;
  failed: number;
  detail: string;
}

/** A conversation that carries `secret` in a tool output, a tool-call input and user text, then enough turns to compact. */
function conversationWith(text: string): Message[] {
  const messages: Message[] = [
    { id: 'sys', role: 'system', parts: [{ id: 'sys.0', type: 'text', text: 'You help.' }] },
  ];
  messages.push({ id: 'u0', role: 'user', parts: [{ id: 'u0.0', type: 'text', text: `use this: ${text}` }] });
  messages.push({
    id: 'a0',
    role: 'assistant',
    parts: [
      { id: 'a0.0', type: 'tool-call', callId: 'c0', name: 'bash', input: { command: `echo ${text}`, env: text } },
    ],
  });
  messages.push({ id: 't0', role: 'tool', parts: [{ id: 't0.0', type: 'tool-result', callId: 'c0', output: text }] });
  for (let turn = 1; turn < 30; turn++) {
    messages.push({
      id: `u${turn}`,
      role: 'user',
      parts: [{ id: `u${turn}.0`, type: 'text', text: `step ${turn} ${'x'.repeat(400)}` }],
    });
    messages.push({
      id: `a${turn}`,
      role: 'assistant',
      parts: [{ id: `a${turn}.0`, type: 'text', text: `done ${turn}` }],
    });
  }
  return messages;
}

/** What each summarizer path was sent and wrote, as one string. */
async function summarizerSees(text: string): Promise<string> {
  const seen: string[] = [];
  const echo = async (request: SummaryRequest): Promise<string> => {
    const sent = JSON.stringify(request.messages);
    seen.push(sent);
    return `summary of ${sent}`;
  };
  const messages = conversationWith(text);
  const compressor = createCompressor({
    summarizer: { name: 'echo', summarize: echo },
    compression: { protectLastN: 4 },
  });
  const compressed = await compressor.compress(messages, {
    sessionId: 's',
    contextWindow: 4_000,
    counter: createTokenCounter(),
    reason: 'threshold',
  });
  // The summaries written (the messages kept whole were never sent to a summarizer).
  seen.push(JSON.stringify(compressed.messages.filter((message) => message.meta?.summary !== undefined)));
  const strategy = summarization({ summarizer: echo, trigger: triggers.always, target: triggers.never });
  const compacted = await applyCompaction(messages, strategy);
  seen.push(JSON.stringify(compacted.messages.filter((message) => message.meta?.summary !== undefined)));
  return seen.join('\n');
}

async function secretsReachingSummarizer(runs: number): Promise<HostileRow[]> {
  const rows: HostileRow[] = [];
  let tried = 0;
  const reached: string[] = [];
  for (const form of SECRET_FORMS) {
    tried++;
    const seen = await summarizerSees(form.text);
    if (secretPieces(form.secret).some((piece) => seen.includes(piece))) reached.push(form.name);
  }
  rows.push({
    measure: 'common secret forms reaching a summarizer',
    tried,
    failed: reached.length,
    detail: reached.join(', ') || '-',
  });
  let generated = 0;
  const leaked = new Set<string>();
  for (const provider of PROVIDER_SECRETS) {
    for (const secret of fc.sample(provider.secret, runs)) {
      generated++;
      const seen = await summarizerSees(provider.around.replace('SECRET', secret));
      if (seen.includes(secret)) leaked.add(provider.name);
    }
  }
  rows.push({
    measure: 'generated provider secrets reaching a summarizer',
    tried: generated,
    failed: [...leaked].length,
    detail: [...leaked].join(', ') || '-',
  });
  return rows;
}

const HEADER_TIME = '2026-01-01T00:00:00.000Z';

/** Hostile files per importer: each builds about `bytes` of text meant to crash the importer or make it slow. */
const HOSTILE_FILES: readonly { importer: string; name: string; build: (bytes: number) => string }[] = [
  {
    importer: 'pi',
    name: 'every compaction keeps everything again',
    build: (bytes) => {
      const lines = [JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: HEADER_TIME })];
      let parent: string | null = null;
      for (let index = 0, size = 0; size < bytes; index++) {
        const id = `e${index}`;
        const value =
          index % 2 === 0
            ? { type: 'message', message: { role: 'user', content: `turn ${index}`, timestamp: 1 } }
            : { type: 'compaction', summary: 's', firstKeptEntryId: 'e0', tokensBefore: 1 };
        const line = JSON.stringify({ id, parentId: parent, timestamp: HEADER_TIME, ...value });
        lines.push(line);
        size += line.length + 1;
        parent = id;
      }
      return lines.join('\n');
    },
  },
  {
    importer: 'codex',
    name: 'an item type per line (named like Object.prototype members too)',
    build: (bytes) => {
      const lines = [JSON.stringify({ timestamp: HEADER_TIME, type: 'session_meta', payload: { id: 's', cwd: '/w' } })];
      const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
      for (let index = 0, size = 0; size < bytes; index++) {
        const type = index < names.length ? names[index]! : `custom_item_${index}`;
        const line = JSON.stringify({ timestamp: HEADER_TIME, type: 'response_item', payload: { type } });
        lines.push(line);
        size += line.length + 1;
      }
      return lines.join('\n');
    },
  },
  {
    importer: 'codex',
    name: 'token counts with no reply, compactions',
    build: (bytes) => {
      const lines = [JSON.stringify({ timestamp: HEADER_TIME, type: 'session_meta', payload: { id: 's', cwd: '/w' } })];
      for (let index = 0, size = 0; size < bytes; index++) {
        const line =
          index % 3 === 2
            ? JSON.stringify({ timestamp: HEADER_TIME, type: 'compacted', payload: { message: 'sum' } })
            : JSON.stringify({
                timestamp: HEADER_TIME,
                type: 'event_msg',
                payload: {
                  type: 'token_count',
                  info: {
                    last_token_usage: { input_tokens: 5, output_tokens: 1 },
                    total_token_usage: { total_tokens: index },
                  },
                },
              });
        lines.push(line);
        size += line.length + 1;
      }
      return lines.join('\n');
    },
  },
  {
    importer: 'gemini-cli',
    name: 'messages, then a rewind per line',
    build: (bytes) => {
      const lines = [JSON.stringify({ sessionId: 's', projectHash: 'p', startTime: HEADER_TIME, kind: 'main' })];
      const count = Math.max(10, Math.floor(bytes / 120));
      for (let index = 0; index < count; index++)
        lines.push(JSON.stringify({ id: `m${index}`, timestamp: HEADER_TIME, type: 'user', content: 'hi' }));
      for (let index = 0; index < count; index++) lines.push(JSON.stringify({ $rewindTo: `m${count - 1}` }));
      return lines.join('\n');
    },
  },
  {
    importer: 'gemini-cli',
    name: 'a function response nested 200,000 deep',
    build: () => {
      const header = JSON.stringify({ sessionId: 's', projectHash: 'p', startTime: HEADER_TIME, kind: 'main' });
      const user = JSON.stringify({ id: 'u', timestamp: HEADER_TIME, type: 'user', content: 'read' });
      const deep = `${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`;
      const call = `{"id":"g","timestamp":"${HEADER_TIME}","type":"gemini","content":"","toolCalls":[{"id":"c","name":"read_file","args":{},"result":[{"functionResponse":{"id":"c","name":"read_file","response":${deep}}}],"status":"success"}]}`;
      return [header, user, call].join('\n');
    },
  },
  {
    importer: 'claude-code',
    // Repeated to the size asked, so its time per MB is a slope and not a parse's fixed cost over 600 bytes.
    name: 'requests reporting 1e9 input tokens and -5 output tokens',
    build: (bytes) => {
      const lines: string[] = [];
      let parent: string | null = null;
      for (let index = 0, size = 0; size < bytes; index++) {
        const user = JSON.stringify({
          type: 'user',
          uuid: `u${index}`,
          parentUuid: parent,
          sessionId: 's',
          timestamp: HEADER_TIME,
          message: { role: 'user', content: `hi ${index}` },
        });
        const assistant = JSON.stringify({
          type: 'assistant',
          uuid: `a${index}`,
          parentUuid: `u${index}`,
          sessionId: 's',
          timestamp: HEADER_TIME,
          requestId: `r${index}`,
          message: {
            id: `m${index}`,
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'text', text: 'ok' }],
            usage: { input_tokens: 1e9, output_tokens: -5 },
          },
        });
        lines.push(user, assistant);
        size += user.length + assistant.length + 2;
        parent = `a${index}`;
      }
      return lines.join('\n');
    },
  },
];

/** Each hostile file parsed: a clear refusal (TranscriptError) is fine; any other throw is a crash, over 10 s per MB a hang. */
function hostileFiles(bytes: number): HostileRow[] {
  const rows: HostileRow[] = [];
  const slowest = new Map<string, { msPerMb: number; name: string }>();
  let crashes = 0;
  let hangs = 0;
  const outcomes: string[] = [];
  for (const file of HOSTILE_FILES) {
    const text = file.build(bytes);
    // CPU time, not wall time: the machine is shared, and a hang is work, not waiting.
    const started = process.cpuUsage();
    let outcome = 'parsed';
    try {
      parseTranscript(text, { file: `${file.importer}.jsonl`, skipInvalid: true });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      outcome =
        typeof code === 'string' && code.startsWith('CTXHOST_TRANSCRIPT')
          ? 'refused'
          : `crash (${(error as Error).name})`;
    }
    const used = process.cpuUsage(started);
    const msPerMb = ((used.user + used.system) / 1000 / text.length) * 1e6;
    if (outcome.startsWith('crash')) crashes++;
    if (msPerMb > 10_000) hangs++;
    outcomes.push(`${file.importer}/${file.name}: ${outcome}`);
    const best = slowest.get(file.importer);
    if (best === undefined || msPerMb > best.msPerMb) slowest.set(file.importer, { msPerMb, name: file.name });
  }
  rows.push({
    measure: 'hostile files: crashes',
    tried: HOSTILE_FILES.length,
    failed: crashes,
    detail: outcomes.join('; '),
  });
  rows.push({
    measure: 'hostile files: hangs (over 10 s per MB)',
    tried: HOSTILE_FILES.length,
    failed: hangs,
    detail: '-',
  });
  for (const [importer, { msPerMb, name }] of slowest)
    rows.push({
      measure: `slowest input per MB: ${importer}`,
      tried: 1,
      failed: 0,
      detail: `${Math.round(msPerMb)} ms/MB (${name})`,
    });
  return rows;
}

/** Smallest: 3 generated secrets per provider, 100 KB files; full: 30 per provider, 1 MB files. */
export async function runHostileInputs(size: BenchSize = 'full'): Promise<HostileRow[]> {
  const small = size === 'smallest';
  return [...(await secretsReachingSummarizer(small ? 3 : 30)), ...hostileFiles(small ? 100_000 : 1_000_000)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await runHostileInputs());
