/**
 * Exact tokens on the OpenAI-format corpus transcripts (OpenHands, SWE-agent):
 * the OpenAI counter of @ctxhost/openai (gpt-tokenizer, o200k_base) against
 * gpt-tokenizer's own encodeChat on the same chat, and ctxhost's calibrated
 * estimator (and chars/4) against the exact count.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/token-counter.ts
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeChat } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokens, messageChars, toOpenAI, type Message } from '@ctxhost/core';
import { chatMessageText, createOpenAITokenCounter, loadOpenAIEncoding } from '@ctxhost/openai';
import { readTranscript } from '@ctxhost/transcripts';

export interface TokenCounterRow {
  transcript: string;
  messages: number;
  exactTokens: number;
  counterVsEncodeChat: number;
  estimatorTokens: number;
  estimatorError: string;
  estimatorMedianPerMessage: string;
  charsOver4Error: string;
}

const CORPUS = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus');
const FOLDERS = ['openhands', 'swe-agent'];

export async function runTokenCounter(): Promise<TokenCounterRow[]> {
  const encoding = await loadOpenAIEncoding('o200k_base');
  const rows: TokenCounterRow[] = [];
  const all = { messages: 0, exact: 0, reference: 0, estimate: 0, chars: 0, perMessage: [] as number[] };
  for (const folder of FOLDERS) {
    for (const file of readdirSync(join(CORPUS, folder))
      .filter((name) => /\.(json|jsonl|traj)$/.test(name))
      .sort()) {
      const { messages } = await readTranscript(join(CORPUS, folder, file));
      const counter = createOpenAITokenCounter(encoding);
      const exact = counter.countAll(messages);
      const reference = referenceCount(messages, (text) => encoding.countText(text));
      const estimate = messages.reduce((sum, message) => sum + estimateTokens(message), 0);
      const chars = messages.reduce((sum, message) => sum + messageChars(message), 0) / 4;
      const perMessage = messages
        .map((message) => relative(estimateTokens(message), counter.count(message)))
        .filter(Number.isFinite);
      Object.assign(all, {
        messages: all.messages + messages.length,
        exact: all.exact + exact,
        reference: all.reference + reference,
        estimate: all.estimate + estimate,
        chars: all.chars + chars,
      });
      all.perMessage.push(...perMessage);
      rows.push(row(`${folder}/${file}`, messages.length, exact, reference, estimate, chars, perMessage));
    }
  }
  rows.push(row('all', all.messages, all.exact, all.reference, all.estimate, all.chars, all.perMessage));
  return rows;
}

/**
 * The independent count: gpt-tokenizer's encodeChat over the text of each chat
 * message (its framing and the role), minus the 3 tokens it adds to prime the
 * reply; tool calls are not in encodeChat's input, so their name and arguments
 * are encoded on their own, with the same 3-token framing the counter assumes.
 */
function referenceCount(messages: readonly Message[], countText: (text: string) => number): number {
  let total = 0;
  for (const chat of toOpenAI(
    messages
      .map((message) => ({
        ...message,
        parts: message.parts.filter((part) => part.type !== 'image' && part.type !== 'file'),
      }))
      .filter((message) => message.parts.length > 0),
  )) {
    total +=
      encodeChat([{ role: chat.role === 'developer' ? 'system' : chat.role, content: chatMessageText(chat) }], 'gpt-4o')
        .length - 3;
    if (chat.role === 'assistant')
      for (const call of chat.tool_calls ?? [])
        total += 3 + countText(call.function.name) + countText(call.function.arguments);
  }
  return total;
}

function row(
  transcript: string,
  count: number,
  exact: number,
  reference: number,
  estimate: number,
  chars: number,
  perMessage: number[],
): TokenCounterRow {
  return {
    transcript,
    messages: count,
    exactTokens: exact,
    counterVsEncodeChat: exact - reference,
    estimatorTokens: Math.round(estimate),
    estimatorError: signedPercent((estimate - exact) / exact),
    estimatorMedianPerMessage: percent(median(perMessage)),
    charsOver4Error: signedPercent((chars - exact) / exact),
  };
}

function relative(estimate: number, exact: number): number {
  return exact === 0 ? Number.NaN : Math.abs(estimate - exact) / exact;
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function percent(value: number): string {
  return Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(1)}%`;
}

function signedPercent(value: number): string {
  return `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runTokenCounter());
}
