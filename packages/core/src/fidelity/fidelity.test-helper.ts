import { createMessage } from '../model/part-ids.js';
import type { Message } from '../model/message.js';

/** A small coding session: a request with a constraint, a write, a failing test run, a correction, a decision. */
export function codingSpan(): Message[] {
  return [
    createMessage(
      'user',
      [
        {
          type: 'text',
          text: 'Add rate limiting to src/server/router.ts. Never change the public `handleRequest` signature.',
        },
      ],
      { id: 'u1' },
    ),
    createMessage(
      'assistant',
      [
        { type: 'text', text: 'I decided to use a token bucket per client instead of a fixed window.' },
        {
          type: 'tool-call',
          callId: 'c1',
          name: 'Write',
          input: { file_path: 'src/server/rateLimiter.ts', content: 'export const bucket = 1;\n' },
        },
      ],
      { id: 'a1' },
    ),
    createMessage('tool', [{ type: 'tool-result', callId: 'c1', output: 'File written' }], { id: 't1' }),
    createMessage(
      'assistant',
      [{ type: 'tool-call', callId: 'c2', name: 'Bash', input: { command: 'npx vitest run packages/server' } }],
      { id: 'a2' },
    ),
    createMessage(
      'tool',
      [
        {
          type: 'tool-result',
          callId: 'c2',
          output: 'FAIL router.test.ts\nTypeError: bucket.take is not a function\nexit code 1',
          isError: true,
        },
      ],
      { id: 't2' },
    ),
    createMessage('user', [{ type: 'text', text: 'No, keep the limit at 100 requests per minute, not 60.' }], {
      id: 'u2',
    }),
  ];
}
