/**
 * Renders the demo's report and screenshots its top (the cards and both
 * charts) to docs/report.png, the picture in the root README:
 *   node --import tsx --conditions=@ctxhost/source test/support/screenshot-report.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DEMO_TRANSCRIPT, runDemo } from '../../packages/cli/src/commands/demo.js';
import { textStream } from '../../packages/cli/src/output/index.js';
import { chromiumInstalled, runChromium } from './headless-chromium.js';

const output = fileURLToPath(new URL('../../docs/report.png', import.meta.url));
if (!chromiumInstalled()) throw new Error('needs /usr/bin/chromium (apt-get install -y chromium)');
const folder = await mkdtemp(join(tmpdir(), 'ctxhost-report-'));
try {
  const report = join(folder, 'demo-report.html');
  const quiet = textStream(() => undefined);
  await runDemo(DEFAULT_DEMO_TRANSCRIPT, { sidechains: true, live: false, report }, { out: quiet, err: quiet });
  await runChromium(report, ['--window-size=1000,1130', `--screenshot=${output}`]);
  process.stdout.write(`wrote ${output}\n`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
