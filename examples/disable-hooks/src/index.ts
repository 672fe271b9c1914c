import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDefaultHost } from 'ctxhost';

/**
 * `disabled_hooks` in .ctxhost/config.yaml switches built-in hooks off by name.
 * Shows the plugins of a default host before and after.
 */
export async function main(
  log: (line: string) => void = console.log,
): Promise<{ before: readonly string[]; after: readonly string[] }> {
  const project = mkdtempSync(join(tmpdir(), 'ctxhost-disable-hooks-'));
  mkdirSync(join(project, '.ctxhost'));
  writeFileSync(join(project, '.ctxhost', 'config.yaml'), 'store:\n  kind: memory\n');
  const before = (await loadDefaultHost({ cwd: project })).plugins;
  writeFileSync(
    join(project, '.ctxhost', 'config.yaml'),
    'store:\n  kind: memory\ndisabled_hooks:\n  - preemptive-compaction\n  - session-hygiene\n',
  );
  const after = (await loadDefaultHost({ cwd: project })).plugins;
  log(`with every hook:       ${before.join(', ')}`);
  log(`with disabled_hooks:   ${after.join(', ')}`);
  log('an unknown name there is a config error that lists the valid names');
  return { before, after };
}
