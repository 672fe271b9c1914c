import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, createMemoryStore, MISSED_HEADING, REHYDRATED_HEADING, type Host } from '@ctxhost/core';
import type { Part } from '@opencode-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompactionAddendumTransform } from './compaction-addendum-transform.js';
import { createMirrorRegistry } from './mirror-registry.js';
import { createOpencodeCompactionReviewer } from './opencode-compaction-review.js';
import type { OpencodeEntry } from './opencode-compaction-span.js';
import { assistant, marker, SESSION, text, user } from './opencode-entries.test-helper.js';
import { readProjectFiles } from './project-files.js';

const SILENT = { debug() {}, info() {}, warn() {}, error() {} };

function withParts(entry: OpencodeEntry, parts: Part[]): OpencodeEntry {
  return { ...entry, parts };
}

function readCall(messageID: string, callID: string, filePath: string, output: string): Part {
  return {
    id: `${messageID}.${callID}`,
    sessionID: SESSION,
    messageID,
    type: 'tool',
    callID,
    tool: 'read',
    state: {
      status: 'completed',
      input: { filePath },
      output,
      title: filePath,
      metadata: {},
      time: { start: 1, end: 2 },
    },
  };
}

describe("the check of opencode's summaries", () => {
  let project = '';
  let host: Host;
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'ctxhost-review-'));
    await writeFile(join(project, 'billing.ts'), 'export const currency = "EUR";\n');
    host = createHost({ store: createMemoryStore(), logger: SILENT, enginePlugin: false, cwd: project });
    host.hooks.rehydrate.tapPromise('test', async ({ paths }) => readProjectFiles(project, paths));
    (await host.session(SESSION)).contextWindow = 200_000;
  });
  afterAll(async () => {
    await host.dispose();
    await rm(project, { recursive: true, force: true });
  });

  const entries: OpencodeEntry[] = [
    withParts(user('u1'), [text('u1', 'never use the currency USD in billing.ts; ' + 'context '.repeat(400))]),
    withParts(assistant('a1', 'u1'), [
      text('a1', 'Reading it. ' + 'details '.repeat(400)),
      readCall('a1', 'call_1', join(project, 'billing.ts'), 'export const currency = "USD";'),
    ]),
    marker('c1'),
    withParts(assistant('s1', 'c1', { summary: true, finish: 'stop' }), [text('s1', 'We looked at some code.')]),
  ];

  it('scores the summary against the span it replaced, adds what it missed and the file as it is now, and records it', async () => {
    const reviewer = createOpencodeCompactionReviewer(host, { messages: async () => entries }, createMirrorRegistry());
    const reviewed = await reviewer.review(SESSION, 's1');
    await reviewer.settled();
    expect(reviewed?.report).toMatchObject({ engine: 'opencode', reason: 'manual' });
    expect(reviewed!.report.fidelity!.candidateScore).toBeLessThan(1);
    expect(reviewed!.report.fidelity!.missed.map((probe) => probe.kind)).toContain('file');
    const added = reviewed!.addenda.map((part) => part.text).join('\n');
    expect(added).toContain(MISSED_HEADING);
    expect(added).toContain(`${REHYDRATED_HEADING}\n### billing.ts\n\`\`\`\nexport const currency = "EUR";`);
    const session = await host.session(SESSION);
    expect(session.messages().map((message) => message.id)).toEqual(['s1']);

    const request = structuredClone(entries.slice(2));
    await createCompactionAddendumTransform(reviewer, (error) => {
      throw error;
    })({}, { messages: request });
    const summaryParts = request[1]!.parts;
    expect(summaryParts.slice(1).map((part) => (part.type === 'text' ? part.text : ''))).toEqual(
      reviewed!.addenda.map((part) => part.text),
    );
  });
});
