import { PassThrough } from 'node:stream';
import pc from 'picocolors';
import { afterEach, describe, expect, it } from 'vitest';
import { processStream, textStream } from './cli-io.js';
import { startProgress } from './progress.js';

/** A stream that says it is a terminal, collecting what is written to it. */
function fakeTerminal(): { stream: NodeJS.WriteStream; written: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 80 }) as unknown as NodeJS.WriteStream;
  let text = '';
  (stream as unknown as PassThrough).on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, written: () => text };
}

const savedEnv = { NO_COLOR: process.env['NO_COLOR'], FORCE_COLOR: process.env['FORCE_COLOR'] };
afterEach(() => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('startProgress', () => {
  it('draws nothing when the stream is not a terminal', () => {
    let written = '';
    const progress = startProgress(
      textStream((text) => (written += text)),
      { label: 'compacting', total: 3 },
    );
    progress.update(2);
    progress.increment();
    progress.stop();
    expect(written).toBe('');
  });

  it('draws a bar on a terminal and clears it when stopped', async () => {
    const terminal = fakeTerminal();
    const progress = startProgress(processStream(terminal.stream), { label: 'compacting', total: 3, unit: 'steps' });
    progress.update(2);
    progress.stop();
    progress.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(terminal.written()).toContain('compacting');
    expect(terminal.written()).toMatch(/2\/3 steps/);
  });
});

describe('processStream', () => {
  it('colours a terminal and leaves a pipe plain', () => {
    delete process.env['NO_COLOR'];
    delete process.env['FORCE_COLOR'];
    expect(processStream(fakeTerminal().stream).colors.bold('x')).toBe(pc.createColors(true).bold('x'));
    expect(processStream(fakeTerminal().stream).colors.bold('x')).not.toBe('x');
    expect(
      processStream(Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream).colors.bold(
        'x',
      ),
    ).toBe('x');
    process.env['NO_COLOR'] = '1';
    expect(processStream(fakeTerminal().stream).colors.bold('x')).toBe('x');
  });
});
