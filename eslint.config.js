import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import fs from 'node:fs';
import path from 'node:path';

/**
 * What git ignores, ESLint ignores (a gitignore line as a flat config pattern, as @eslint/compat's
 * includeIgnoreFile converts it): a name without an inner slash matches at any depth.
 */
function gitIgnored(file) {
  return fs.readFileSync(path.join(import.meta.dirname, file), 'utf8').split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = (negated ? line.slice(1) : line).trimEnd();
      const slash = pattern.indexOf('/');
      const anywhere = slash < 0 || slash === pattern.length - 1 ? '**/' : '';
      const body = (slash === 0 ? pattern.slice(1) : pattern).replace(/[{(]/g, '\\$&');
      return `${negated ? '!' : ''}${anywhere}${body}${pattern.endsWith('/**') ? '/*' : ''}`;
    });
}

const ALIAS_NOT_DOTS = { group: ['../../*', '../../../*'], message: 'Use the @/ or @contracts/ alias instead of ../../.' };

/** The folders of admin-spa/screens/, one a screen. */
function screenFolders() {
  return fs.readdirSync(path.join(import.meta.dirname, 'admin-spa/screens'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

export default tseslint.config(
  { name: 'gitignore', ignores: gitIgnored('.gitignore') },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // SQL lives in repositories and server/db/ only: services hold rules, routes stay thin.
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.repository.ts', 'server/db/**', 'server/**/*.test.ts', 'server/test-*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message: 'SQL belongs in a *.repository.ts or server/db/.',
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'SQL belongs in a *.repository.ts or server/db/.' },
      ],
    },
  },
  {
    // The SPA names its imports from the root of its folder (@/lib/api.ts), and contracts by @contracts/.
    files: ['admin-spa/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ALIAS_NOT_DOTS] }] },
  },
  // A screen never imports another screen: what two screens share lives in admin-spa/components/
  // (or lib/). One block per screen folder, since a pattern cannot name the importing file's folder.
  ...screenFolders().map((screen) => ({
    files: [`admin-spa/screens/${screen}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          ALIAS_NOT_DOTS,
          {
            group: ['@/screens/*', `!@/screens/${screen}`, `!@/screens/${screen}/**`, '../*', '!../', `!../${screen}/**`],
            message: 'A screen does not import another screen: move the shared piece to admin-spa/components/<area>/ (or admin-spa/lib/) and import it from there.',
          },
        ],
      }],
    },
  })),
  {
    // A function a reader can hold: a long service factory splits into smaller factories by concern,
    // composed into the same object; a long component into sub-components or hooks beside it.
    files: ['server/modules/**/*.ts', 'server/worker/**/*.ts', 'admin-spa/screens/**/*.tsx', 'admin-spa/components/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Migrations are written against the schema of their day, not today's: Kysely<any>, as Kysely advises.
    files: ['server/db/migrations/*.ts', 'server/db/migrate.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['scripts/**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
