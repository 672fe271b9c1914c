/**
 * Issue #23's measure: bench/recovery's overflows (1%, 50%, 300%) through each
 * framework integration — model calls until the answer, tokens sent, whether the
 * caller saw an error. Each framework's part lives in its package's bench/ folder,
 * so the framework stays that package's dependency.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/integrations.ts
 */
import { pathToFileURL } from 'node:url';
import { runAiSdkRecovery } from '../packages/ai-sdk/bench/recovery.js';
import { runLangchainRecovery } from '../packages/langchain/bench/recovery.js';
import { runMastraRecovery } from '../packages/mastra/bench/recovery.js';
import { runOpenaiAgentsRecovery } from '../packages/openai-agents/bench/recovery.js';
import type { IntegrationRow } from './integration-scenarios.js';

export async function runIntegrations(): Promise<IntegrationRow[]> {
  return [
    ...(await runAiSdkRecovery()),
    ...(await runOpenaiAgentsRecovery()),
    ...(await runMastraRecovery()),
    ...(await runLangchainRecovery()),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runIntegrations());
}
