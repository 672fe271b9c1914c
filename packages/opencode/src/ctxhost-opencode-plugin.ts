import {
  createFileStore,
  createHost,
  createMemoryStore,
  readHookSection,
  type CtxhostConfig,
  type Host,
  type Plugin as HostPlugin,
  type SessionStore,
} from '@ctxhost/core';
import { createAutoCompactPlugin } from '@ctxhost/auto-compact';
import { createContextWindowMonitor } from '@ctxhost/context-window-monitor';
import { readNativeCompactionConfig } from '@ctxhost/native-compaction';
import { createToolOutputTruncator } from '@ctxhost/tool-output-truncator';
import type { Hooks, Plugin, PluginInput } from '@opencode-ai/plugin';
import { createCompactionAddendumTransform } from './compaction-addendum-transform.js';
import { createCompactionBriefHandler } from './compaction-brief-handler.js';
import { OPENCODE_ERROR_CODES, OpencodeBridgeError } from './errors.js';
import { createEventBridge } from './event-bridge.js';
import { createHostLogger } from './host-logger.js';
import { loadOpencodeConfig } from './load-opencode-config.js';
import { createMirrorRegistry } from './mirror-registry.js';
import { createNativeChatParams, type NativeChatParams } from './native-chat-params.js';
import { createOpencodeActions, type OpencodeActions } from './opencode-actions.js';
import { createOpencodeBridgePlugin } from './opencode-bridge-plugin.js';
import { createOpencodeCompactionReviewer } from './opencode-compaction-review.js';
import { OPENCODE_SECTION, OpencodeConfigSchema } from './opencode-config.js';
import { createOpencodePreemptiveCompaction } from './opencode-preemptive-compaction.js';
import { createOpencodeResummary } from './opencode-resummary.js';
import { createOpencodeSummaryEngine } from './opencode-summary-engine.js';
import { createOpencodeSyncStore } from './opencode-sync-store.js';
import { createOriginalOutputTool, ORIGINAL_OUTPUT_TOOL } from './original-output-tool.js';
import { readProjectFiles } from './project-files.js';
import { createToolOutputHandler } from './tool-output-handler.js';

const REHYDRATE_FROM_PROJECT = 'opencode-rehydrate';

export interface CtxhostOpencodeOptions {
  /** The folder of the user `config.yaml` (default: ctxhost's env-paths config folder, or `CTXHOST_CONFIG_DIR`). */
  userConfigDir?: string;
}

/**
 * The opencode plugin: builds a ctxhost host from the config, forwards
 * opencode's events into it, and carries out what its hooks decide through
 * opencode's client. If the host cannot start (a config error), it says so in
 * a toast and opencode runs without it.
 */
export function createCtxhostOpencodePlugin(options: CtxhostOpencodeOptions = {}): Plugin {
  return async (input) => {
    try {
      return await start(input, options);
    } catch (cause) {
      const error = new OpencodeBridgeError(
        OPENCODE_ERROR_CODES.startFailed,
        `ctxhost did not start in ${input.directory}: ${cause instanceof Error ? cause.message : String(cause)}. opencode runs without it; fix the config and restart opencode.`,
        { cause },
      );
      createHostLogger(input.client).error(error.message);
      // Not awaited: opencode is still loading its plugins, and the server answers the toast call only after that.
      void input.client.tui
        .showToast({ body: { title: 'ctxhost is off', message: error.message, variant: 'error' } })
        .catch(() => undefined);
      return {};
    }
  };
}

async function start(input: PluginInput, options: CtxhostOpencodeOptions): Promise<Hooks> {
  const { config } = await loadOpencodeConfig({
    directory: input.directory,
    client: input.client,
    ...(options.userConfigDir === undefined ? {} : { userConfigDir: options.userConfigDir }),
  });
  const registry = createMirrorRegistry();
  const actions = createOpencodeActions(input.client, input.serverUrl, input.directory);
  const opencode = readHookSection(config, OPENCODE_SECTION, OpencodeConfigSchema);
  const logger = createHostLogger(input.client);
  const native = createNativeChatParams(readNativeCompactionConfig({ config, logger }, undefined), logger);
  const host = createHost({
    config,
    store: createOpencodeSyncStore(storeFor(config), actions, registry, opencode),
    logger,
    cwd: input.directory,
    // opencode builds its own requests: ctxhost's request-side engine never runs here. A compaction is
    // opencode's summarize, so the recovery cascade plans with an engine shaped like it.
    enginePlugin: false,
    engine: createOpencodeSummaryEngine(),
    plugins: [
      ...builtInHooks(registry, actions, opencode.max_resummaries, native),
      createOpencodeBridgePlugin(actions, registry),
    ],
  });
  host.hooks.sessionDeleted.tapPromise('native-compaction', async ({ sessionId }) => native.forget(sessionId));
  // Every session of this host is one of opencode's, working in its project directory.
  host.hooks.rehydrate.tapPromise(REHYDRATE_FROM_PROJECT, async ({ paths }) =>
    readProjectFiles(input.directory, paths),
  );
  const reviewer = createOpencodeCompactionReviewer(host, actions, registry);
  host.hooks.sessionDeleted.tapPromise(REHYDRATE_FROM_PROJECT, async ({ sessionId }) => reviewer.forget(sessionId));
  let opencodeCompacts = false;
  const bridge = createEventBridge(host, registry, {
    opencodeCompacts: () => opencodeCompacts,
    readParts: (sessionId, messageId) => actions.messageParts(sessionId, messageId),
    readMessage: (sessionId, messageId) => actions.message(sessionId, messageId),
    compacted: (sessionId) => reviewer.compacted(sessionId),
  });
  const onToolExecuted = createToolOutputHandler(host, registry, () => bridge.settled());
  return {
    event: async ({ event }) => bridge.accept(event),
    config: async (opencodeConfig) => {
      opencodeCompacts = compactsItself(opencodeConfig);
    },
    'tool.execute.after': async (tool, output) => {
      if (tool.tool === ORIGINAL_OUTPUT_TOOL) return;
      await onToolExecuted(tool, output).catch((error: unknown) =>
        host.logger.error(`ctxhost could not check the output of ${tool.tool}`, { error: String(error) }),
      );
    },
    'chat.params': async (params, output) => {
      const { sessionID, model } = params;
      try {
        native.apply(params, output);
      } catch (error) {
        host.logger.error('ctxhost could not add native compaction to the request', { error: String(error) });
      }
      await learnContextWindow(host, sessionID, model.limit.context).catch((error: unknown) =>
        host.logger.error('ctxhost could not record the context window', { error: String(error) }),
      );
    },
    'experimental.session.compacting': createCompactionBriefHandler(input.client, registry, (error) =>
      host.logger.error("ctxhost could not add its brief to opencode's summary prompt", { error: String(error) }),
    ),
    'experimental.chat.messages.transform': createCompactionAddendumTransform(reviewer, (error) =>
      host.logger.error("ctxhost could not add its check of opencode's summary to the request", {
        error: String(error),
      }),
    ),
    tool: { [ORIGINAL_OUTPUT_TOOL]: createOriginalOutputTool(host) },
    dispose: async () => {
      await bridge.settled();
      await reviewer.settled();
      await host.dispose();
    },
  };
}

/** opencode compacts an overflowing session itself unless `compaction.auto` is false (OPENCODE_DISABLE_AUTOCOMPACT sets it so). */
function compactsItself(opencodeConfig: object): boolean {
  const compaction = (opencodeConfig as { compaction?: { auto?: unknown } }).compaction;
  return compaction?.auto !== false;
}

/** The hooks that act on events opencode emits; preemptive compaction is opencode's own version, under the same name and config. */
function builtInHooks(
  registry: ReturnType<typeof createMirrorRegistry>,
  actions: OpencodeActions,
  maxResummaries: number,
  native: NativeChatParams,
): HostPlugin[] {
  return [
    createContextWindowMonitor(),
    createOpencodePreemptiveCompaction(registry, actions, native.clientFloor),
    createToolOutputTruncator(),
    createAutoCompactPlugin(),
    createOpencodeResummary(registry, maxResummaries),
  ];
}

function storeFor(config: CtxhostConfig): SessionStore {
  if (config.store.kind === 'memory') return createMemoryStore();
  return createFileStore(config.store.path === undefined ? {} : { directory: config.store.path });
}

/** opencode knows the model's window; ctxhost's `model.context_length` wins when set. */
async function learnContextWindow(host: Host, sessionId: string, window: number): Promise<void> {
  if (host.config.model.contextLength !== undefined || !(window > 0)) return;
  const session = await host.session(sessionId);
  session.contextWindow = window;
}
