// The type-aware linter: typescript-eslint's type-checked rules (recommendedTypeChecked) over
// every TypeScript and JavaScript file of the package, types from tsconfig.json through the
// project service (the JavaScript files are in it with allowJs, unchecked). Layout is Prettier's
// job (.prettierrc.json): no rule here is about layout. A finding is fixed, or disabled on its
// line with `// eslint-disable-next-line rule -- reason`; each rule turned off below says why.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/', 'build/', 'build-*/', 'prebuilds/', 'coverage/', 'native/', '.vitest-cache/', '.stryker-tmp/', 'reports/'],
  },
  {
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The two this linter is here for: code that is mostly async must not drop a promise, nor
      // hand one to a caller that expects a plain value (an event listener, a void callback).
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A name that starts with _ is unused on purpose (a field left out of a rest copy, a parameter an interface requires).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `interface Builder extends Methods {}` names a mixin's methods on a class (commands/builders.ts).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Off: the code marks an indexed read it knows is in range with `!` (the habit
      // noUncheckedIndexedAccess asks for); without that compiler option every such mark reads as unnecessary.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Off: `Snowflake | '@me'` names the literal a parameter takes besides an id; Snowflake is a
      // string, so the rule would call the literal redundant and drop it from the signature.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // Off: an async function that implements a promise-returning interface (a store's acquire,
      // the emulator's seeding methods) stays async without an await, so a throw becomes a rejection.
      '@typescript-eslint/require-await': 'off',
      // Off: a wait rejects with its AbortSignal's reason, as node:timers/promises does, and a
      // caller's rejection is passed on as it came; neither is always an Error.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
    },
  },
  {
    files: ['src/emulator/**/*.ts'],
    rules: {
      // Off: the emulator's route steps throw the refusal they answer with (OAuthProblem, Refusal),
      // which its route pipeline catches and sends; they are answers, not Errors.
      '@typescript-eslint/only-throw-error': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Off in tests: they read wire JSON (typed any) and poke at values of the wrong type on
      // purpose; a wrong shape fails the assertion that reads it.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Off in tests: they take functions off objects to call them as values (cleanupAfterEach's
      // helpers, the addon's functions under hostile `this`).
      '@typescript-eslint/unbound-method': 'off',
      // Off in tests: the privacy and hardening tests turn objects into strings on purpose, to
      // check that no secret shows in what String() gives.
      '@typescript-eslint/no-base-to-string': 'off',
      // No timed upper bound (`expect(Date.now() - started).toBeLessThan(n)`): a busy machine breaks
      // it. A lower bound (the client waited what it was told) stays allowed.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^toBeLessThan(OrEqual)?$/][callee.object.callee.name='expect'][callee.object.arguments.0.type='BinaryExpression'][callee.object.arguments.0.operator='-'][callee.object.arguments.0.left.callee.property.name='now'][callee.object.arguments.0.left.callee.object.name=/^(Date|performance)$/]",
          message:
            'No timed upper bounds in tests: a busy machine makes them fail. Assert what ended the wait instead (the error code or sentence only that path gives, the order of events, or a wait longer than the test timeout); performance is measured in bench/.',
        },
      ],
    },
  },
  {
    files: ['test/types/**/*.ts'],
    // Off: the type tests are `@ts-expect-error` lines, each one the check that a wrong type is refused.
    rules: { '@typescript-eslint/ban-ts-comment': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: {
      // Off in JavaScript: it is in the project unchecked (checkJs is off), so every value is any
      // and these rules would flag each use; the promise rules still see the calls they need.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // Off in JavaScript: the CommonJS files (test fixtures, examples for require() users) load with require.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
