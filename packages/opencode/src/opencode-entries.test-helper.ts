import type { Part } from '@opencode-ai/sdk';
import type { OpencodeEntry } from './opencode-compaction-span.js';

/* opencode messages as session.messages returns them, for the plugin's unit tests. */

export const SESSION = 'ses_1';

export function user(id: string, parts: Part[] = [text(id, 'ask')]): OpencodeEntry {
  return {
    info: {
      id,
      sessionID: SESSION,
      role: 'user',
      time: { created: 1 },
      agent: 'build',
      model: { providerID: 'p', modelID: 'm' },
    },
    parts,
  };
}

export function assistant(
  id: string,
  parentID: string,
  extra: { summary?: boolean; finish?: string } = { finish: 'stop' },
): OpencodeEntry {
  return {
    info: {
      id,
      sessionID: SESSION,
      role: 'assistant',
      parentID,
      time: { created: 1, completed: 2 },
      modelID: 'm',
      providerID: 'p',
      mode: 'build',
      path: { cwd: '/p', root: '/p' },
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
      ...extra,
    },
    parts: [text(id, 'reply')],
  };
}

export function text(messageID: string, body: string): Part {
  return { id: `${messageID}.t`, sessionID: SESSION, messageID, type: 'text', text: body };
}

export function marker(id: string, tailStartId?: string): OpencodeEntry {
  const part = {
    id: `${id}.c`,
    sessionID: SESSION,
    messageID: id,
    type: 'compaction',
    auto: false,
    ...(tailStartId === undefined ? {} : { tail_start_id: tailStartId }),
  };
  return user(id, [part as Part]);
}
