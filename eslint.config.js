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
  // The web app: routes and layouts compose features, and a feature imports no other feature. What
  // several features use lives below them: web/entities (a link's card, dialogs and data; topics; the
  // session), then web/components and web/lib, which know neither.
  {
    files: ['web/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[^./][^/]*/|^(\\.\\./)+(features|routes|layouts)/',
              message: "A web feature imports no other feature: move what both need to web/entities, web/components or web/lib.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/entities/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+(features|routes|layouts)/', message: 'web/entities import no feature, route or layout.' }] },
      ],
    },
  },
  {
    files: ['web/lib/**/*.{ts,tsx}', 'web/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+(features|entities|routes|layouts)/', message: 'web/lib and web/components import no feature, entity, route or layout.' },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'shared/ui/**/*.{ts,tsx}', 'shared/queries/**/*.{ts,tsx}', 'extension/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
