import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'dist', '.output', '.wxt', 'data', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layers (docs/architecture.md). shared/ serves the server, the web app and the extension, and
  // imports none of them.
  {
    files: ['shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '**/web/**', '**/extension/**'], message: 'shared/ imports nothing of server/, web/ or extension/.' }] },
      ],
    },
  },
  // Only the HTTP layer (and app.ts and main.ts, which assemble it) knows about HTTP: services, rules and
  // data below it answer in their own terms (errors through server/errors.ts).
  {
    files: ['server/**/*.ts'],
    ignores: ['server/http/**', 'server/app.ts', 'server/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/http', '**/http/**', 'fastify'], message: 'Below the HTTP layer, nothing imports server/http/ or Fastify.' }] },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'shared/ui/**/*.{ts,tsx}', 'extension/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
