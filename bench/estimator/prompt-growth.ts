import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promptTokens, type Message } from '@ctxhost/core';
import { readTranscript } from '@ctxhost/transcripts';

/** Real tokens for appended messages: how much the API-reported prompt grew between two requests of one thread. */
export interface PromptGrowth {
  /** First 8 characters of the session file's name. */
  session: string;
  /** `main`, or the subagent thread the transcript importer named. */
  thread: string;
  /** Tokens the later request's prompt had over the earlier one's (input + cache creation + cache reads). */
  realTokens: number;
  /** What was appended in between: the earlier request's reply and the tool results and user text after it. */
  added: Message[];
}

export const CLAUDE_CODE_CORPUS = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'corpus', 'claude-code');

export function claudeCodeSessionFiles(directory = CLAUDE_CODE_CORPUS): string[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(directory, name));
}

/**
 * Every prompt growth of a Claude Code session, subagent threads included (each
 * subagent is a conversation of its own, with its own prompt). Lines the model never
 * saw (local commands, interruptions) are left out; a growth of 0 or less (a cache
 * miss reported differently, a compaction) is not a count and is skipped.
 */
export async function readPromptGrowth(file: string): Promise<PromptGrowth[]> {
  const { messages, usage = [] } = await readTranscript(file, { includeSidechains: true });
  const session = file.split('/').at(-1)!.slice(0, 8);
  const threadOf = (message: Message): string => String(message.meta?.thread ?? 'main');
  const requestsOfThread = new Map<string, typeof usage>();
  for (const request of usage) {
    const thread = threadOf(messages[request.replyIndex]!);
    requestsOfThread.set(thread, [...(requestsOfThread.get(thread) ?? []), request]);
  }
  const growths: PromptGrowth[] = [];
  for (const [thread, requests] of requestsOfThread)
    for (let index = 1; index < requests.length; index++) {
      const [before, after] = [requests[index - 1]!, requests[index]!];
      const realTokens = promptTokens(after.usage) - promptTokens(before.usage);
      const added = messages
        .slice(before.messageIndex + 1, after.messageIndex + 1)
        .filter((message) => threadOf(message) === thread && message.meta?.uiOnly === undefined);
      if (realTokens > 0 && added.length > 0) growths.push({ session, thread, realTokens, added });
    }
  return growths;
}
