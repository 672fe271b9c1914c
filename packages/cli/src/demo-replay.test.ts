import { describe, expect, it } from 'vitest';
import { runDemo, DEFAULT_DEMO_TRANSCRIPT } from './commands/demo.js';

describe('the demo replay', () => {
  it('compacts, warns and recovers an overflow, offline', async () => {
    const output = await runDemo(DEFAULT_DEMO_TRANSCRIPT, { sidechains: true });
    expect(output).toMatch(/compaction \(threshold, compressor\): [\d,]+ → [\d,]+ tokens/);
    expect(output).toMatch(/toast \[(info|warning)\] Context/);
    expect(output).toContain('toast [success] Session recovered');
    expect(output).toContain('the session answered again');
  });
});
