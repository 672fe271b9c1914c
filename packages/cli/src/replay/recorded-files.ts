import { isWriteCall, pathArgument, outputText, type JsonValue, type Message, type RehydratedFile } from 'ctxhost';

const WHOLE_CONTENT_KEYS = ['content', 'contents', 'file_text'];

/**
 * The files a replayed session would re-read after a compaction, as its own record last
 * showed them (a replay has no disk of the recorded machine): the whole content a write
 * call gave, else what the last successful read of the path returned. Edits that give
 * only a replacement leave the last whole version. Paths the record never showed are left out.
 */
export function recordedFiles(history: readonly Message[], paths: readonly string[]): RehydratedFile[] {
  const wanted = new Set(paths);
  const latest = new Map<string, string>();
  const readPaths = new Map<string, string>();
  for (const message of history)
    for (const part of message.parts) {
      if (part.type === 'tool-call') {
        const path = pathArgument(part.input);
        if (path === undefined || !wanted.has(path)) continue;
        const content = wholeContent(part.input);
        if (content !== undefined) latest.set(path, content);
        else if (!isWriteCall(part)) readPaths.set(part.callId, path);
      } else if (part.type === 'tool-result' && part.isError !== true) {
        const path = readPaths.get(part.callId);
        if (path !== undefined) latest.set(path, outputText(part));
      }
    }
  return paths.flatMap((path) => {
    const content = latest.get(path);
    return content === undefined ? [] : [{ path, content }];
  });
}

function wholeContent(input: JsonValue): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  for (const key of WHOLE_CONTENT_KEYS) {
    const value = input[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}
