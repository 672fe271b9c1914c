/**
 * `recovery`'s overflows (1%, 50%, 300%) through each framework integration —
 * model calls until the answer, tokens sent, whether the caller saw an error.
 * Each framework's part is in bench/integrations/<package>.ts.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/integrations.ts
 */
import { pathToFileURL } from 'node:url';
import type { BenchSize } from './bench.js';
import type { IntegrationRow } from './integration-scenarios.js';
import { runAiSdkRecovery } from './integrations/ai-sdk.js';
import { runLangchainRecovery } from './integrations/langchain.js';
import { runMastraRecovery } from './integrations/mastra.js';
import { runOpenaiAgentsRecovery } from './integrations/openai-agents.js';

export async function runIntegrations(size: BenchSize = 'full'): Promise<IntegrationRow[]> {
  return [
    ...(await runAiSdkRecovery(size)),
    ...(await runOpenaiAgentsRecovery(size)),
    ...(await runMastraRecovery(size)),
    ...(await runLangchainRecovery(size)),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runIntegrations());
}
