import type { Part } from '../model/message.js';
import type { StoreEvent } from './session-store.js';

/**
 * The first version of every part a session's log has seen, by part id: from
 * appended messages, updated parts (a part first seen in an update) and the
 * messages a compaction put into the projection (summaries). Later updates
 * never replace an entry, so it answers `store.original(partId)` in O(1).
 */
export interface PartOriginals {
  record(event: StoreEvent): void;
  get(partId: string): Part | undefined;
}

/** `copy: false` keeps the parts themselves (a caller that never changes them, like an ephemeral session's log). */
export function createPartOriginals(options: { copy?: boolean } = {}): PartOriginals {
  const copy = options.copy !== false ? <T>(value: T): T => structuredClone(value) : <T>(value: T): T => value;
  const originals = new Map<string, Part>();
  const remember = (part: Part): void => {
    if (!originals.has(part.id)) originals.set(part.id, copy(part));
  };
  return {
    record(event) {
      if (event.type === 'message.appended') {
        event.originals?.forEach(remember);
        event.message.parts.forEach(remember);
      } else if (event.type === 'part.updated') remember({ ...event.part, id: event.partId });
      else if (event.type === 'compaction.applied')
        event.projection.forEach((message) => message.parts.forEach(remember));
    },
    get(partId) {
      const part = originals.get(partId);
      return part === undefined ? undefined : copy(part);
    },
  };
}
