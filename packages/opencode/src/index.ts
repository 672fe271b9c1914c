import type { PluginModule } from '@opencode-ai/plugin';
import { createCtxhostOpencodePlugin } from './ctxhost-opencode-plugin.js';

/** ctxhost's plugin for opencode, with the config read from the usual places. */
export const CtxhostPlugin = createCtxhostOpencodePlugin();

const plugin: PluginModule = { id: 'ctxhost', server: CtxhostPlugin };
export default plugin;

export type { CtxhostOpencodeOptions } from './ctxhost-opencode-plugin.js';
