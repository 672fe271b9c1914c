import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Message } from '@ctxhost/core';
import { readTranscript } from '@ctxhost/transcripts';

/** One corpus transcript, imported once and shared (read-only) by every session that starts from it. */
export interface CorpusTranscript {
  name: string;
  messages: readonly Message[];
  /** Prefix lengths that end on a complete exchange: every tool call before the cut is answered before it. */
  cutPoints: readonly number[];
}

const TRANSCRIPT_FILE = /\.(jsonl|json|traj)$/;

/** Imports every transcript under `directory` (the test fixtures' corpus). */
export async function loadCorpus(directory: string): Promise<CorpusTranscript[]> {
  const files = listFiles(directory).filter((path) => TRANSCRIPT_FILE.test(path));
  const transcripts = await Promise.all(
    files.map(async (path) => ({
      name: relative(directory, path),
      messages: (await readTranscript(path, { skipInvalid: true })).messages,
    })),
  );
  return transcripts
    .map((transcript) => ({ ...transcript, cutPoints: cutPoints(transcript.messages) }))
    .filter((transcript) => transcript.cutPoints.length > 0);
}

function listFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** Prefix lengths (≥ 2) after which no tool call is left open and the next message is not a tool result. */
export function cutPoints(messages: readonly Message[]): number[] {
  const points: number[] = [];
  const open = new Set<string>();
  messages.forEach((message, index) => {
    for (const part of message.parts) {
      if (part.type === 'tool-call') open.add(part.callId);
      if (part.type === 'tool-result') open.delete(part.callId);
    }
    const next = messages[index + 1];
    if (index >= 1 && open.size === 0 && next?.role !== 'tool') points.push(index + 1);
  });
  return points;
}
