import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import panda from '@pandacss/eslint-plugin';
import i18next from 'eslint-plugin-i18next';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Layering (bulletproof-react): shared code -> features -> app, and features never import each other. */
const layerZones = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'Features do not import each other; move shared code to components, hooks or lib.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'Features do not import the app layer.',
  },
  {
    target: ['./src/components', './src/config', './src/hooks', './src/lib', './src/types'],
    from: ['./src/features', './src/app'],
    message: 'Shared code does not import features or the app layer.',
  },
];

export default defineConfig([
  // openapi.gen.ts is generated from docs/api/openapi.json (npm run api:generate) and kept as generated.
  globalIgnores([
    'dist',
    'dist-ssr',
    'coverage',
    'node_modules',
    'styled-system',
    'src/paraglide',
    'src/types/openapi.gen.ts',
  ]),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [
      js.configs.recommended,
      tseslint.configs.recommendedTypeChecked,
      reactHooks.configs.flat['recommended-latest'],
      reactRefresh.configs.vite,
      importX.flatConfigs.typescript,
    ],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: './tsconfig.app.json', noWarnOnMultipleProjects: true }),
        createNodeResolver(),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': 'error',
      'import-x/no-duplicates': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'react-refresh/only-export-components': ['error', { allowConstantExport: true }],
      // React Router raises HTTP errors by throwing a Response.
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'lib', name: 'Response' }] }],
    },
  },
  {
    // Visible text comes from the locale file.
    files: ['src/**/*.tsx'],
    ignores: ['src/**/__tests__/**', 'src/testing/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': ['error', { mode: 'jsx-text-only' }],
    },
  },
  {
    // Every image's URL is built by lib/image-url.ts (spec section 7: {image host}/{id}/{variant}),
    // and every form moves focus on Enter with lib/enter-to-next-field.ts (spec section 5).
    files: ['src/**/*.tsx'],
    ignores: ['src/**/__tests__/**', 'src/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "JSXOpeningElement[name.name='form']:not(:has(JSXAttribute[name.name='onKeyDown'] > JSXExpressionContainer > Identifier[name='enterToNextField']))",
          message: "Give every form onKeyDown={enterToNextField} from '@/lib/enter-to-next-field'.",
        },
        ...["JSXOpeningElement[name.name=/^(img|Image)$/]", "JSXOpeningElement[name.property.name='Image']"].flatMap(
          (image) =>
            [
              `${image} > JSXAttribute[name.name='src'] > Literal`,
              `${image} > JSXAttribute[name.name='src'] > JSXExpressionContainer > :not(CallExpression[callee.name='imageUrl'])`,
            ].map((selector) => ({ selector, message: "Build an image's URL with imageUrl() from '@/lib/image-url'." })),
        ),
      ],
    },
  },
  {
    // Styles are read from the source at build time (panda.config.ts): a value Panda cannot see
    // there ships no CSS. Its plugin flags such values, renamed style props and unknown tokens.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/__tests__/**', 'src/testing/**'],
    plugins: { '@pandacss': panda },
    settings: { '@pandacss/configPath': './panda.config.ts' },
    rules: Object.fromEntries(
      Object.keys(panda.configs.recommended.rules).map((rule) => [rule, 'error']),
    ),
  },
  {
    files: ['src/**/__tests__/**', 'src/testing/**'],
    rules: {
      'react-refresh/only-export-components': 'off',
    },
  },
  {
    // The kit exports each widget as an object of its parts (Dialog.Root, Dialog.Content...).
    files: ['src/components/ui/**'],
    rules: {
      'react-refresh/only-export-components': 'off',
    },
  },
  {
    files: ['vite.config.ts', 'eslint.config.js', 'playwright.config.ts', 'e2e/**'],
    languageOptions: { globals: globals.node },
  },
]);
