import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENTS, runClient, type ClientRun, type ClientStack } from './client-stack.js';

/** One agent CLI: what it needs to talk to `baseUrl`, and one turn of a conversation (`turn > 0` continues it). */
export interface Agent {
  name: string;
  /** The npm package and version the tests drive (scripts/install-test-clients.mjs pins them). */
  package: string;
  setup(stack: ClientStack, baseUrl: string): Promise<void>;
  turn(stack: ClientStack, turn: number, prompt: string): Promise<ClientRun>;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = (name: string) => join(CLIENTS, '.bin', name);

export const claudeCode: Agent = {
  name: 'Claude Code',
  package: '@anthropic-ai/claude-code@2.1.332',
  setup: async () => undefined,
  turn: (stack, turn, prompt) =>
    runClient(bin('claude'), ['-p', ...(turn === 0 ? [] : ['--continue']), prompt, '--model', 'claude-sonnet-4-6'], {
      cwd: stack.project,
      env: {
        HOME: stack.home,
        ANTHROPIC_BASE_URL: baseUrls.get(stack)!,
        ANTHROPIC_API_KEY: 'caller-key',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
    }),
};

export const codex: Agent = {
  name: 'Codex CLI',
  package: '@openai/codex@0.171.0',
  async setup(stack, baseUrl) {
    await writeFile(
      join(stack.home, 'config.toml'),
      [
        'model = "gpt-5.5"',
        'model_provider = "gateway"',
        '[model_providers.gateway]',
        'name = "gateway"',
        `base_url = "${baseUrl}/v1"`,
        'env_key = "GATEWAY_KEY"',
        'wire_api = "responses"',
        '',
      ].join('\n'),
    );
  },
  turn: (stack, turn, prompt) =>
    runClient(
      bin('codex'),
      ['exec', '--skip-git-repo-check', ...(turn === 0 ? [prompt] : ['resume', '--last', prompt])],
      { cwd: stack.project, env: { HOME: stack.home, CODEX_HOME: stack.home, GATEWAY_KEY: 'caller-key' } },
    ),
};

export const geminiCli: Agent = {
  name: 'Gemini CLI',
  package: '@google/gemini-cli@0.61.0',
  async setup(stack) {
    await mkdir(join(stack.home, '.gemini'), { recursive: true });
    await writeFile(
      join(stack.home, '.gemini', 'settings.json'),
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
      }),
    );
  },
  turn: (stack, turn, prompt) =>
    runClient(
      bin('gemini'),
      ['-m', 'gemini-3-flash-preview', '--yolo', ...(turn === 0 ? [] : ['--resume', 'latest']), '-p', prompt],
      {
        cwd: stack.project,
        env: {
          HOME: stack.home,
          GEMINI_API_KEY: 'caller-key',
          GOOGLE_GEMINI_BASE_URL: baseUrls.get(stack)!,
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
        },
      },
    ),
};

export const pi: Agent = {
  name: 'pi',
  package: '@mariozechner/pi-coding-agent@0.73.1',
  async setup(stack, baseUrl) {
    await mkdir(join(stack.home, 'agent'), { recursive: true });
    await writeFile(
      join(stack.home, 'agent', 'models.json'),
      JSON.stringify({
        providers: {
          gateway: {
            baseUrl: `${baseUrl}/v1`,
            api: 'openai-completions',
            apiKey: 'caller-key',
            compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
            // pi's own compaction plans with the window it is told: a large one, so the gateway is what keeps it in.
            models: [{ id: 'gpt-5', contextWindow: 400_000, maxTokens: 4096 }],
          },
        },
      }),
    );
  },
  turn: (stack, turn, prompt) =>
    runClient(bin('pi'), ['--provider', 'gateway', '--model', 'gpt-5', ...(turn === 0 ? [] : ['-c']), '-p', prompt], {
      cwd: stack.project,
      env: { HOME: stack.home, PI_CODING_AGENT_DIR: join(stack.home, 'agent') },
    }),
};

/** opencode's binary from the workspace's pinned `opencode-ai` (packages/opencode's dev dependency). */
function opencodeBinary(): string {
  const require = createRequire(join(root, 'packages/opencode/package.json'));
  return join(dirname(require.resolve('opencode-ai/package.json')), 'bin', 'opencode.exe');
}

export const opencode: Agent = {
  name: 'opencode',
  package: 'opencode-ai@1.18.33',
  async setup(stack, baseUrl) {
    await writeFile(
      join(stack.project, 'opencode.json'),
      JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        model: 'anthropic/claude-sonnet-4-5',
        autoupdate: false,
        share: 'disabled',
        // opencode's own compaction off, so the gateway is what keeps the conversation in.
        compaction: { auto: false },
        provider: { anthropic: { options: { baseURL: `${baseUrl}/v1`, apiKey: 'caller-key' } } },
      }),
    );
  },
  turn: (stack, turn, prompt) =>
    runClient(opencodeBinary(), ['run', ...(turn === 0 ? [] : ['--continue']), prompt], {
      cwd: stack.project,
      env: {
        HOME: stack.home,
        XDG_CONFIG_HOME: join(stack.home, 'xdg', 'config'),
        XDG_DATA_HOME: join(stack.home, 'xdg', 'data'),
        XDG_CACHE_HOME: join(stack.home, 'xdg', 'cache'),
        XDG_STATE_HOME: join(stack.home, 'xdg', 'state'),
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
      },
    }),
};

/** The base URL each stack's agent was set up with (the env-based agents read it per turn). */
export const baseUrls = new WeakMap<ClientStack, string>();

export const AGENTS: readonly Agent[] = [claudeCode, codex, geminiCli, opencode, pi];
