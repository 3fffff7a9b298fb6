import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import Long from "long";
import { PROTO_DIR } from "../util/paths.js";
import { names } from "../names/activeNames.js";
import { renameRoot } from "./renameRoot.js";

// 64-bit integers decode to Long objects (protobufjs cannot find "long" by itself under ESM).
protobuf.util.Long = Long;
protobuf.configure();

const require = createRequire(import.meta.url);
// descriptor.proto is not among protobufjs' bundled well-known types; it ships as a file.
const PROTOBUFJS_DIR = path.dirname(require.resolve("protobufjs/package.json"));

function listProtoFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith(".proto")).sort();
}

/**
 * Loads every .proto under `dir` into one protobufjs Root, keeping the proto
 * field names (snake_case) as the JSON names of both route families.
 * Imports are resolved relative to `dir`; google/protobuf/* comes from protobufjs.
 */
export function loadProtoRoot(dir: string = PROTO_DIR): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => {
    if (path.isAbsolute(target)) return target;
    if (target.startsWith("google/protobuf/")) {
      const local = path.join(dir, target);
      if (fs.existsSync(local)) return local;
      const bundled = path.join(PROTOBUFJS_DIR, target);
      return fs.existsSync(bundled) ? bundled : target; // bare name → protobufjs' built-in common types
    }
    return path.join(dir, target);
  };
  root.loadSync(listProtoFiles(dir), { keepCase: true });
  root.resolveAll();
  return root;
}

const shared = new Map<string, protobuf.Root>();

/** The process-wide root under the naming profile (names.yaml's packages), loaded once on first use. */
export function protoRoot(): protobuf.Root {
  const map = names();
  let root = shared.get(map.profile);
  if (!root) {
    root = renameRoot(loadBuiltRoot() ?? loadProtoRoot(), map);
    shared.set(map.profile, root);
  }
  return root;
}

/** Where the build writes the root's descriptors as JSON (beside the compiled module). */
export const BUILT_ROOT_FILE = fileURLToPath(new URL("./proto-root.json", import.meta.url));

/**
 * The root from the JSON the build wrote (cheaper than parsing the .proto
 * files at every start), unless a .proto file changed after it was written.
 */
function loadBuiltRoot(dir: string = PROTO_DIR): protobuf.Root | undefined {
  if (!fs.existsSync(BUILT_ROOT_FILE)) return undefined;
  const builtAt = fs.statSync(BUILT_ROOT_FILE).mtimeMs;
  if (listProtoFiles(dir).some((name) => fs.statSync(path.join(dir, name)).mtimeMs > builtAt)) return undefined;
  const root = protobuf.Root.fromJSON(JSON.parse(fs.readFileSync(BUILT_ROOT_FILE, "utf8")) as protobuf.INamespace);
  root.resolveAll();
  return root;
}
