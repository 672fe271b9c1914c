/**
 * The simulator's stand-in for a provider's encrypted compaction content: the
 * summary it wrote, base64url-encoded behind a marker, so that the simulator
 * (and a test) can read back what it summarized while clients must treat it
 * as opaque, exactly as they must treat OpenAI's and Anthropic's.
 */
const MARKER = 'ctxsim1.';

export function sealSummary(summary: string): string {
  return `${MARKER}${Buffer.from(JSON.stringify({ summary }), 'utf8').toString('base64url')}`;
}

/** The summary inside content the simulator sealed; undefined for anything else (another server's, or altered). */
export function openSummary(content: unknown): string | undefined {
  if (typeof content !== 'string' || !content.startsWith(MARKER)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(content.slice(MARKER.length), 'base64url').toString('utf8')) as unknown;
    const summary = (parsed as { summary?: unknown } | null)?.summary;
    return typeof summary === 'string' ? summary : undefined;
  } catch {
    return undefined;
  }
}
