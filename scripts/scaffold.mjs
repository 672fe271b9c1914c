// One-off scaffold of the workspace packages (kept for adding new ones).
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const sdk = { '@anthropic-ai/sdk': '^1.12.0' };
const packages = [
  [
    'packages/core',
    '@ctxhost/core',
    { tapable: '^2.3.4', zod: '^4.6.7', yaml: '^2.9.1', 'env-paths': '^4.0.0' },
    { 'fast-check': '^4.10.2' },
  ],
  ['packages/transcripts', '@ctxhost/transcripts', { '@ctxhost/core': 'workspace:*', zod: '^4.6.7' }, {}],
  ['packages/simulator', '@ctxhost/simulator', { zod: '^4.6.7' }, { ...sdk }],
  [
    'packages/compaction',
    '@ctxhost/compaction',
    { '@ctxhost/core': 'workspace:*' },
    { '@ctxhost/simulator': 'workspace:*', '@ctxhost/anthropic': 'workspace:*', 'fast-check': '^4.10.2', ...sdk },
  ],
  [
    'packages/anthropic',
    '@ctxhost/anthropic',
    { '@ctxhost/core': 'workspace:*', ...sdk },
    { '@ctxhost/simulator': 'workspace:*' },
  ],
  [
    'packages/compressor',
    '@ctxhost/compressor',
    { '@ctxhost/core': 'workspace:*' },
    { '@ctxhost/simulator': 'workspace:*', '@ctxhost/anthropic': 'workspace:*', ...sdk },
  ],
  [
    'packages/session-hygiene',
    '@ctxhost/session-hygiene',
    { '@ctxhost/core': 'workspace:*' },
    { '@ctxhost/compressor': 'workspace:*' },
  ],
  ['packages/context-window-monitor', '@ctxhost/context-window-monitor', { '@ctxhost/core': 'workspace:*' }, {}],
  [
    'packages/preemptive-compaction',
    '@ctxhost/preemptive-compaction',
    { '@ctxhost/core': 'workspace:*' },
    { '@ctxhost/context-window-monitor': 'workspace:*' },
  ],
  ['packages/tool-output-truncator', '@ctxhost/tool-output-truncator', { '@ctxhost/core': 'workspace:*' }, {}],
  [
    'packages/auto-compact',
    '@ctxhost/auto-compact',
    { '@ctxhost/core': 'workspace:*', '@ctxhost/compaction': 'workspace:*' },
    {
      '@ctxhost/simulator': 'workspace:*',
      '@ctxhost/anthropic': 'workspace:*',
      '@ctxhost/compressor': 'workspace:*',
      ...sdk,
    },
  ],
  [
    'packages/prompt-caching',
    '@ctxhost/prompt-caching',
    { '@ctxhost/core': 'workspace:*' },
    { '@ctxhost/simulator': 'workspace:*', '@ctxhost/anthropic': 'workspace:*', ...sdk },
  ],
  [
    'packages/ctxhost',
    'ctxhost',
    {
      '@ctxhost/core': 'workspace:*',
      '@ctxhost/compaction': 'workspace:*',
      '@ctxhost/compressor': 'workspace:*',
      '@ctxhost/context-window-monitor': 'workspace:*',
      '@ctxhost/preemptive-compaction': 'workspace:*',
      '@ctxhost/auto-compact': 'workspace:*',
      '@ctxhost/session-hygiene': 'workspace:*',
      '@ctxhost/tool-output-truncator': 'workspace:*',
      '@ctxhost/prompt-caching': 'workspace:*',
      '@ctxhost/anthropic': 'workspace:*',
      '@ctxhost/transcripts': 'workspace:*',
      ...sdk,
    },
    { '@ctxhost/simulator': 'workspace:*' },
  ],
  [
    'packages/cli',
    '@ctxhost/cli',
    {
      ctxhost: 'workspace:*',
      '@ctxhost/simulator': 'workspace:*',
      '@ctxhost/transcripts': 'workspace:*',
      commander: '^14.0.2',
      'cli-progress': '^3.12.0',
      picocolors: '^1.1.1',
      ...sdk,
    },
    { '@types/cli-progress': '^3.11.6' },
  ],
  [
    'packages/store-postgres',
    '@ctxhost/store-postgres',
    { '@ctxhost/core': 'workspace:*', pg: '^8.23.1' },
    { '@types/pg': '^8.15.6' },
  ],
  [
    'packages/opencode',
    '@ctxhost/opencode',
    { ctxhost: 'workspace:*', '@opencode-ai/plugin': '1.18.33' },
    { '@ctxhost/simulator': 'workspace:*', '@opencode-ai/sdk': '1.18.33', 'opencode-ai': '1.18.33' },
  ],
  [
    'packages/gateway',
    '@ctxhost/gateway',
    { '@ctxhost/core': 'workspace:*', ctxhost: 'workspace:*', zod: '^4.6.7' },
    { '@ctxhost/simulator': 'workspace:*', openai: '^7.57.0', '@google/genai': '^3.1.0', ...sdk },
  ],
  [
    'plugins/context_engine/lcm',
    '@ctxhost/engine-lcm',
    {},
    {
      '@ctxhost/core': 'workspace:*',
      '@ctxhost/simulator': 'workspace:*',
      '@ctxhost/anthropic': 'workspace:*',
      ...sdk,
    },
    { '@ctxhost/core': 'workspace:*' },
  ],
];

for (const [dir, name, deps, devDeps, peerDeps] of packages) {
  mkdirSync(join(dir, 'src'), { recursive: true });
  const depth = dir.split('/').length;
  const up = '../'.repeat(depth);
  const pkg = {
    name,
    version: '0.1.0',
    description: '',
    type: 'module',
    license: 'MIT',
    exports: {
      '.': { '@ctxhost/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    main: './dist/index.js',
    types: './dist/index.d.ts',
    files: ['dist'],
    scripts: { build: 'tsc -p tsconfig.build.json' },
    dependencies: deps,
    devDependencies: devDeps,
    ...(peerDeps ? { peerDependencies: peerDeps } : {}),
  };
  if (!existsSync(join(dir, 'package.json')))
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
  writeFileSync(
    join(dir, 'tsconfig.build.json'),
    JSON.stringify(
      {
        extends: `${up}tsconfig.base.json`,
        compilerOptions: { rootDir: 'src', outDir: 'dist', customConditions: [] },
        include: ['src/**/*.ts'],
        exclude: ['src/**/*.test.ts', 'src/**/*.test-d.ts'],
      },
      null,
      2,
    ) + '\n',
  );
  if (!existsSync(join(dir, 'src/index.ts'))) writeFileSync(join(dir, 'src/index.ts'), 'export {};\n');
}
