import { findTooDeep, MessageSchema, tooDeepMessage, type Message } from '@ctxhost/core';
import { parseClaudeCode } from './claude-code.js';
import { parseCodex } from './codex.js';
import { detectFormat } from './detect-format.js';
import { TRANSCRIPT_ERROR_CODES, TranscriptError, formatLocation } from './errors.js';
import { parseGeminiCli } from './gemini-cli.js';
import { parseOpencode } from './opencode.js';
import { parseOpenHands } from './openhands.js';
import { parsePi } from './pi.js';
import { createParseContext, isRecord } from './parse-context.js';
import { parseSweAgent } from './swe-agent.js';
import { TRANSCRIPT_FORMATS, type Transcript, type TranscriptOptions } from './transcript.js';

/**
 * Imports a transcript from its text: detects the format by content, converts it
 * to ctxhost messages and validates them with `MessageSchema`.
 * Throws a TranscriptError (CTXHOST_TRANSCRIPT_*) naming the file, the line and the problem.
 */
export function parseTranscript(text: string, options: TranscriptOptions = {}): Transcript {
  const file = options.file ?? '<text>';
  const context = createParseContext(file, options.skipInvalid === true);
  const detection = detectFormat(text);
  if (detection.format === undefined) {
    const tried = TRANSCRIPT_FORMATS.map((format) => `${format} (${detection.reasons[format]})`).join('; ');
    throw new TranscriptError(
      TRANSCRIPT_ERROR_CODES.unknownFormat,
      `${formatLocation(file, undefined)}: not a known transcript format; tried ${tried}`,
      { file },
    );
  }
  const result =
    detection.format === 'claude-code'
      ? parseClaudeCode(text, context, options)
      : detection.format === 'openhands'
        ? parseOpenHands(text, context, options)
        : detection.format === 'pi'
          ? parsePi(text, context)
          : detection.format === 'opencode'
            ? parseOpencode(isRecord(detection.json) ? detection.json : {}, context)
            : detection.format === 'codex'
              ? parseCodex(text, context)
              : detection.format === 'gemini-cli'
                ? parseGeminiCli(text, detection.json, context)
                : parseSweAgent(isRecord(detection.json) ? detection.json : {}, context);
  validateMessages(result.messages, file);
  return { ...result, skipped: context.skipped };
}

function validateMessages(messages: readonly Message[], file: string): void {
  messages.forEach((message, index) => {
    const sourceLine = typeof message.meta?.sourceLine === 'number' ? message.meta.sourceLine : undefined;
    const tooDeep = findTooDeep(message);
    if (tooDeep !== undefined) {
      throw new TranscriptError(
        TRANSCRIPT_ERROR_CODES.invalid,
        `${formatLocation(file, sourceLine)}: ${tooDeepMessage(`imported message ${index} (${message.id})`, tooDeep)}`,
        { file, line: sourceLine },
      );
    }
    const parsed = MessageSchema.safeParse(message);
    if (parsed.success) return;
    const issue = parsed.error.issues[0];
    const field = issue === undefined ? '' : issue.path.join('.');
    throw new TranscriptError(
      TRANSCRIPT_ERROR_CODES.invalid,
      `${formatLocation(file, sourceLine)}: imported message ${index} (${message.id}) is invalid at ${field}: ${issue?.message ?? 'unknown problem'}; the source entry does not fit the ctxhost message model`,
      { file, line: sourceLine, cause: parsed.error },
    );
  });
}
