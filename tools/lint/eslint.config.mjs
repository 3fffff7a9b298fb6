// Lint: typescript-eslint's type-checked recommended rules over src, test and bench (formatting is prettier's).
// Run from the repository root: npm run lint.
import path from "node:path";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";

const root = path.resolve(import.meta.dirname, "../..");

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "tools/**", "bin/**", "**/*.mjs", "**/*.cjs", "**/*.js"] },
  ...tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } } },
  prettier,
);
