import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-output/', '.demo/', '.demo.partial/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  {
    files: ['webview/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The engine runs outside VS Code (CLI, MCP server, tests): it must never import the editor API.
    files: [
      'src/engine/**/*.ts',
      'src/shared/**/*.ts',
      // The host's pure view builders: tested in Node without an editor.
      'src/host/views/**/*.ts',
      'src/cli/**/*.ts',
      'src/hook/**/*.ts',
      'src/mcp/**/*.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'] }] },
  },
  {
    // src/shared is the bottom: the engine, the host and the webview all import it, so it and the webview import
    // neither the engine nor the host (type-only imports included). A shared type is declared in src/shared.
    files: ['src/shared/**/*.ts', 'webview/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['vscode'],
          patterns: [
            {
              group: ['**/engine', '**/engine/**', '**/host', '**/host/**'],
              message:
                'src/shared and webview/ never import src/engine or src/host: declare a shared type in src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    // Settings are read in one module (src/host/editor/settings.ts), checked against their one declaration
    // (src/shared/settings.ts); everything else takes plain values from it.
    files: ['src/**/*.ts'],
    ignores: ['src/host/editor/settings.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='getConfiguration']",
          message:
            'Read settings through currentSettings() (src/host/editor/settings.ts), where each is checked.',
        },
      ],
    },
  },
);
