import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../program.js';

const corpus = (path: string): string =>
  fileURLToPath(new URL(`../../../../test/fixtures/corpus/${path}`, import.meta.url));
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ctxhost-demo-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function demo(...args: string[]): Promise<string> {
  let output = '';
  await createProgram((text) => (output += text)).parseAsync(['node', 'ctxhost', 'demo', ...args]);
  return output;
}

describe('ctxhost demo', () => {
  it('prints the tables, replays the bundled session: the monitor warns, the compressor compacts, an overflow is recovered; writes the report', async () => {
    const report = join(folder, 'demo-report.html');
    const output = await demo('--report', report);
    expect(output).toMatch(/format claude-code, 341 messages, sidechains included, 170 API-reported requests/);
    expect(output).toMatch(/^tool_call +163 +326 /m);
    expect(output).toMatch(/^ 1 +82 +Bash +toolu_01WoBqxuPLSBtW4V8onmnH21 +26,746 /m);
    expect(output).toMatch(/Replay through a host with every default hook at a 18,000-token window/);
    expect(output).toMatch(/compaction \(threshold, compressor\): [\d,]+ → [\d,]+ tokens/);
    // The monitor's 70% notice; its 80% warning only when a compaction falls short.
    expect(output).toMatch(
      /toast \[(?:info|warning)\] Context (?:usage|window filling up): \d+% of the [\d,]+-token window/,
    );
    expect(output).toMatch(/overflow: prompt is too long: \d+ tokens > 9000 maximum/);
    expect(output).toMatch(/recovered: Recovered after .*; the session answered again\./);
    expect(output).toMatch(/replayed 170 of 170 recorded assistant turns in 6 sessions/);
    expect(output).toMatch(/cost \$\d+\.\d\d with caching, \$\d+\.\d\d without/);
    expect(output).toContain(`report written to ${report}`);
    const html = await readFile(report, 'utf8');
    expect(html).toMatch(/<svg[^>]*id="context-chart"/);
    expect(html).toMatch(/<svg[^>]*id="cost-chart"/);
  });

  it('reads other formats and options', async () => {
    const output = await demo(
      corpus('openhands/multi-swe-bench-output.jsonl'),
      '--run',
      '2',
      '--report',
      join(folder, 'openhands.html'),
    );
    expect(output).toMatch(/format openhands, 101 messages, run 2 of 3/);
    expect(output).toMatch(/^tool_call +49 +98 /m);
    expect(output).toMatch(/replayed \d+ of \d+ recorded assistant turns in 1 session$/m);
  });

  it('rejects a file that is no transcript with the importer error', async () => {
    await expect(demo(corpus('README.md'))).rejects.toThrow(
      /README\.md: not a known transcript format; tried claude-code/,
    );
  });
});
