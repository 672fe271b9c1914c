import { describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import { settingsHash } from './settings-hash.js';

describe('settingsHash', () => {
  const host = createHost();

  it('keeps one entry for the usual output budgets (under the share the threshold leaves of the window)', () => {
    expect(settingsHash(host, 200_000, 4_096)).toBe(settingsHash(host, 200_000, 64_000));
    expect(settingsHash(host, 200_000, 4_096)).toBe(settingsHash(host, 200_000));
  });

  it('tells apart a budget that draws the compaction line below the threshold’s', () => {
    // The core default threshold is half the window: a budget over the other half draws the line.
    expect(settingsHash(host, 200_000, 120_000)).not.toBe(settingsHash(host, 200_000, 4_096));
    expect(settingsHash(host, 200_000, 120_000)).not.toBe(settingsHash(host, 200_000, 150_000));
    expect(settingsHash(host, 100_000, 4_096)).not.toBe(settingsHash(host, 200_000, 4_096));
  });
});
