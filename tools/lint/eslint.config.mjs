// Lint: typescript-eslint's type-checked recommended rules over src, test, bench and scripts
// (formatting is prettier's). Run from the repository root: npm run lint.
import path from "node:path";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";

const root = path.resolve(import.meta.dirname, "../..");

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "tools/**", "bin/**", "test/architecture/fixture/**", "**/*.mjs", "**/*.cjs", "**/*.js"] },
  ...tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } } },
  {
    rules: {
      // Handlers implement Promise-returning interfaces (NodeModule, QueryHandler, Koa middleware):
      // an async method without an await is the plain way to return a promise there.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // One logger: src/ logs through the process logger (src/telemetry/processLogger.ts), so that
    // `--log-format json` output is all JSON; a command's product goes through productOutput.ts.
    files: ["src/**/*.ts"],
    rules: { "no-console": "error" },
  },
  {
    // Tests read JSON answers (HttpAnswer.body is `any` on purpose: each test checks the shape it
    // expects with chai); the unsafe-any rules would only ask for casts in front of every assertion.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  prettier,
);
