import type { ConfigSection } from '@ctxhost/core';
import { autoCompactConfigSection } from '@ctxhost/auto-compact';
import { monitorConfigSection } from '@ctxhost/context-window-monitor';
import { preemptiveConfigSection } from '@ctxhost/preemptive-compaction';
import { nativeCompactionConfigSection, serverContextConfigSection } from '@ctxhost/native-compaction';
import { promptCachingConfigSection } from '@ctxhost/prompt-caching';
import { sessionHygieneConfigSection } from '@ctxhost/session-hygiene';
import { truncatorConfigSection } from '@ctxhost/tool-output-truncator';
import { gatewaySection } from '@ctxhost/gateway';

/**
 * The `hooks.<name>` sections of the built-in hooks (session hygiene's is empty: a key
 * there is an error that says it has no settings), for
 * `loadConfig({ sections })`: with them, a misspelt hook key is reported with
 * its file, line and column when the config is loaded, not when the hook reads it;
 * and the sections of plugins core does not know by name (`prompt-caching`,
 * `native-compaction`, and the deprecated `server-context` it still reads) are accepted at all. `gateway` is `ctxhost gateway`'s section (not a hook).
 */
export function builtInConfigSections(): ConfigSection[] {
  return [
    monitorConfigSection,
    preemptiveConfigSection,
    truncatorConfigSection,
    sessionHygieneConfigSection,
    promptCachingConfigSection,
    nativeCompactionConfigSection,
    serverContextConfigSection,
    autoCompactConfigSection,
    gatewaySection,
  ];
}
