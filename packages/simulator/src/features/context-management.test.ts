import { describe, expect, it } from 'vitest';
import { CONTEXT_MANAGEMENT_BETA } from './context-editing.js';
import { COMPACTION_BETA } from './server-compaction.js';
import { startSimulator } from '../handler/server.js';

async function post(
  url: string,
  body: object,
  betas: string[] = [],
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      ...(betas.length > 0 ? { 'anthropic-beta': betas.join(',') } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const base = { model: 'claude-sonnet-4-6', max_tokens: 20, messages: [{ role: 'user', content: 'hello' }] };
const clear = { context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } };
const compact = { context_management: { edits: [{ type: 'compact_20260112' }] } };

describe('the context_management field', () => {
  it.each([
    ['no beta', clear, [], 'context_management: Extra inputs are not permitted'],
    ['an unrelated beta', clear, ['files-api-2025-04-14'], 'context_management: Extra inputs are not permitted'],
    [
      'compaction edit under the context-editing beta only',
      compact,
      [CONTEXT_MANAGEMENT_BETA],
      "context_management.edits.0.type: Input tag 'compact_20260112' found using 'type' does not match any of the expected tags: 'clear_tool_uses_20250919', 'clear_thinking_20251015'",
    ],
    [
      'an unknown edit',
      { context_management: { edits: [{ type: 'forget_everything' }] } },
      [CONTEXT_MANAGEMENT_BETA, COMPACTION_BETA],
      "context_management.edits.0.type: Input tag 'forget_everything' found using 'type' does not match any of the expected tags: 'clear_tool_uses_20250919', 'clear_thinking_20251015', 'compact_20260112'",
    ],
    [
      'edits not a list',
      { context_management: { edits: {} } },
      [CONTEXT_MANAGEMENT_BETA],
      'context_management.edits: Input should be a valid list',
    ],
  ])('is rejected with %s', async (_case, extra, betas, message) => {
    const sim = await startSimulator();
    const { status, json } = await post(sim.url, { ...base, ...extra }, betas);
    await sim.close();
    expect(status).toBe(400);
    expect(json['error']).toEqual({ type: 'invalid_request_error', message });
  });

  it('is accepted with its beta, and the response reports applied_edits', async () => {
    const sim = await startSimulator();
    const { status, json } = await post(sim.url, { ...base, ...clear }, [CONTEXT_MANAGEMENT_BETA]);
    await sim.close();
    expect(status).toBe(200);
    expect(json['context_management']).toEqual({ applied_edits: [] });
  });

  it('a compaction block is refused without the compaction beta and accepted with it', async () => {
    const sim = await startSimulator();
    const messages = [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: [{ type: 'compaction', content: 'earlier work', encrypted_content: null }] },
      { role: 'user', content: 'two' },
    ];
    const refused = await post(sim.url, { ...base, messages });
    const accepted = await post(sim.url, { ...base, messages }, [COMPACTION_BETA]);
    await sim.close();
    expect(refused.status).toBe(400);
    expect(accepted.status).toBe(200);
  });
});
