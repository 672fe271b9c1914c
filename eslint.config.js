// ESLint with typescript-eslint's type-aware rules: the same TypeScript program tsc builds,
// so rules like no-floating-promises see the real types. Formatting is Prettier's job.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'test/fixtures/**', '**/*.d.ts', '.changeset/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // tapPromise taps and async interface methods return promises by contract, awaiting or not.
      '@typescript-eslint/require-await': 'off',
      // String(unknown) in error texts is deliberate: it runs after JSON.stringify gave nothing.
      '@typescript-eslint/no-base-to-string': 'off',
      // `KnownReason | string` keeps editor completion for the known values; it is intended.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // Passing on a caught `unknown` as it came is right; wrapping it would hide its class.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // Objects here come from createX factories (closures, not classes): a detached method keeps working.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Tests read JSON bodies and SDK errors as they come; the unsafe-any rules guard library code.
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    // Plain JS, and scripts run from dist outside the TypeScript program: syntax rules only.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs', 'packages/*/scripts/**'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
);
