import type { Message } from '@ctxhost/core';
import type { Transcript, TranscriptBoundary } from './transcript.js';

/** A stretch of a transcript the model saw as one conversation: from the start or a compaction boundary to the next. */
export interface TranscriptSegment {
  /** Index of the segment's first message (the agent's summary, after a boundary). */
  start: number;
  /** One past its last message. */
  end: number;
  /** The boundary that opened it; absent for the first segment. */
  boundary?: TranscriptBoundary;
}

/** The transcript cut at its compaction boundaries; one segment when the agent never compacted. */
export function transcriptSegments(transcript: Pick<Transcript, 'messages' | 'boundaries'>): TranscriptSegment[] {
  const boundaries = (transcript.boundaries ?? []).filter(
    (boundary) => boundary.messageIndex > 0 && boundary.messageIndex < transcript.messages.length,
  );
  const segments: TranscriptSegment[] = [];
  let start = 0;
  let opened: TranscriptBoundary | undefined;
  for (const boundary of boundaries) {
    if (boundary.messageIndex <= start) continue;
    segments.push({ start, end: boundary.messageIndex, ...(opened === undefined ? {} : { boundary: opened }) });
    start = boundary.messageIndex;
    opened = boundary;
  }
  segments.push({ start, end: transcript.messages.length, ...(opened === undefined ? {} : { boundary: opened }) });
  return segments;
}

/** What the model saw last: the messages from the last compaction boundary on (all of them when there was none). */
export function lastSegmentMessages(transcript: Pick<Transcript, 'messages' | 'boundaries'>): Message[] {
  const last = transcriptSegments(transcript).at(-1)!;
  return transcript.messages.slice(last.start, last.end);
}
