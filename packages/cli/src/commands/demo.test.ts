import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../program.js';

const corpus = (path: string): string => fileURLToPath(new URL(`../../../../test/fixtures/corpus/${path}`, import.meta.url));

async function demo(...args: string[]): Promise<string> {
  let output = '';
  await createProgram((text) => (output += text)).exitOverride().parseAsync(['node', 'ctxhost', 'demo', ...args]);
  return output;
}

describe('ctxhost demo', () => {
  it('prints groups by kind and the largest tool outputs of the bundled transcript', async () => {
    const output = await demo();
    expect(output).toMatch(/format claude-code, 341 messages, sidechains included, 170 API-reported requests/);
    expect(output).toMatch(/^tool_call +163 +326 /m);
    expect(output).toMatch(/^ 1 +82 +Bash +toolu_01WoBqxuPLSBtW4V8onmnH21 +26,746 /m);
    expect(output.split('\n').filter((line) => /^ ?\d+ +\d+ /.test(line))).toHaveLength(10);
  });

  it('reads other formats and options', async () => {
    const output = await demo(corpus('openhands/multi-swe-bench-output.jsonl'), '--run', '2');
    expect(output).toMatch(/format openhands, 101 messages, run 2 of 3/);
    expect(output).toMatch(/^tool_call +49 +98 /m);
    expect(await demo(corpus('claude-code/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'), '--no-sidechains')).toMatch(/19 messages, main thread only, 9 API-reported requests/);
  });

  it('rejects a file that is no transcript with the importer error', async () => {
    await expect(demo(corpus('README.md'))).rejects.toThrow(/README\.md: not a known transcript format; tried claude-code/);
  });
});
