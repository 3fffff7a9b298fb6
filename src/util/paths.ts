import { fileURLToPath } from "node:url";
import path from "node:path";

/** The repository (package) root, where the YAML tables and proto/ live. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const PROTO_DIR = path.join(PACKAGE_ROOT, "proto");
