import type { Part, StoreEvent } from '@ctxhost/core';

/**
 * The parts an event brings, in the order core's part originals records them
 * (a message's `originals` before its parts; an updated part under its
 * `partId`; a compaction's projection), first occurrence of an id kept.
 * The store inserts them with ON CONFLICT DO NOTHING, so the first version
 * of a part ever seen in a session stays its original.
 */
export function partsFirstSeen(event: StoreEvent): Part[] {
  const parts = new Map<string, Part>();
  const remember = (part: Part) => {
    if (!parts.has(part.id)) parts.set(part.id, part);
  };
  if (event.type === 'message.appended') {
    event.originals?.forEach(remember);
    event.message.parts.forEach(remember);
  } else if (event.type === 'part.updated') remember({ ...event.part, id: event.partId });
  else if (event.type === 'compaction.applied') event.projection.forEach((message) => message.parts.forEach(remember));
  return [...parts.values()];
}
