// Lint configuration: typescript-eslint's type-aware strict set over the whole tree, so floating promises, misused
// promises and unsafe `any` are errors. Formatting is Prettier's job (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.tmp/', 'idp/worker/dist/', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...tseslint.configs.strict,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Numbers and booleans read naturally in messages; objects and unions with undefined still do not.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `x!` marks an invariant the code has just established (a Map lookup after `has`, a regex group that
      // matched); we keep the assertion visible rather than hiding it behind a runtime check that cannot fail.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `() => void promise` and one-line arrow handlers are idiomatic for Express and mocha callbacks.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // Async functions implement promise-returning contracts (check run(), repositories) even when one
      // implementation has nothing to await; the floating/misused-promise rules catch the real mistakes.
      '@typescript-eslint/require-await': 'off',
      // mongoose's schema definitions are object literals typed as SchemaTypeOptions classes by design.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      // Express knows an error handler by its four parameters, so `_next` must be declared; `{ drop: _drop, ...rest }`
      // is how an object loses a key without `delete`. An underscore marks a name that is there on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Response bodies from supertest/got are `any` by their typings; tests assert their shape explicitly
      // (chai, and ajv against schemas/openapi.json), which is the check these rules would ask for.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // chai's `expect(x).to.be.true` style is an expression statement.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
