import fs from "node:fs";
import path from "node:path";
import type protobuf from "protobufjs";
import type { WordMap } from "../../names/wordMap.js";

/** protobufjs' built-in well-known types carry no file name; these are the files protoc knows them by. */
const WELL_KNOWN_FILES: Record<string, string> = {
  Any: "any",
  Duration: "duration",
  Timestamp: "timestamp",
  Empty: "empty",
  FieldMask: "field_mask",
  Struct: "struct",
  Value: "struct",
  ListValue: "struct",
  NullValue: "struct",
  DoubleValue: "wrappers",
  FloatValue: "wrappers",
  Int64Value: "wrappers",
  UInt64Value: "wrappers",
  Int32Value: "wrappers",
  UInt32Value: "wrappers",
  BoolValue: "wrappers",
  StringValue: "wrappers",
  BytesValue: "wrappers",
};

/** The import path of the file that defines a package-level object: relative to proto/, or google/protobuf/… */
export function protoFileName(object: protobuf.ReflectionObject, protoDir: string): string {
  const file = object.filename;
  if (file) {
    if (!path.isAbsolute(file)) return file;
    const relative = path.relative(protoDir, file);
    if (!relative.startsWith("..")) return relative.split(path.sep).join("/");
    const google = file.split(path.sep).join("/").lastIndexOf("google/protobuf/");
    if (google >= 0) return file.split(path.sep).join("/").slice(google);
  }
  const wellKnown = object.fullName.startsWith(".google.protobuf.") ? WELL_KNOWN_FILES[object.name] : undefined;
  if (wellKnown) return `google/protobuf/${wellKnown}.proto`;
  throw new Error(`${object.fullName.slice(1)}: no .proto file is known for it`);
}

const syntaxes = new Map<string, string>();

/** The syntax a file declares ("proto3" or "proto2"); protobufjs' built-in types are proto3. */
export function syntaxOf(file: string | null): string {
  if (!file || !path.isAbsolute(file)) return "proto3";
  let syntax = syntaxes.get(file);
  if (!syntax) {
    syntax = /^\s*syntax\s*=\s*"(proto[23])"/m.exec(fs.readFileSync(file, "utf8"))?.[1] ?? "proto2";
    syntaxes.set(file, syntax);
  }
  return syntax;
}

/** The files ordered so that each comes after every file it imports (depth first, in name order). */
export function sortByImports<F extends { name: string; dependency: string[] }>(files: F[]): F[] {
  const byName = new Map(files.map((f) => [f.name, f]));
  const done = new Set<string>();
  const out: F[] = [];
  const visit = (file: F, trail: string[]) => {
    if (done.has(file.name)) return;
    if (trail.includes(file.name)) throw new Error(`proto files import each other: ${[...trail, file.name].join(" → ")}`);
    for (const dependency of file.dependency) {
      const imported = byName.get(dependency);
      if (!imported) throw new Error(`${file.name} imports ${dependency}, which is not in the set`);
      visit(imported, [...trail, file.name]);
    }
    done.add(file.name);
    out.push(file);
  };
  for (const file of [...files].sort((a, b) => a.name.localeCompare(b.name))) visit(file, []);
  return out;
}

/** A file's import path in a profile's words: its folders read as a package (core/bank/v1beta1 → cosmos/bank/v1beta1). */
export function profileFileName(name: string, map: WordMap): string {
  if (name.startsWith("google/")) return name;
  const dir = path.posix.dirname(name);
  return path.posix.join(map.protoName(dir.split("/").join(".")).split(".").join("/"), path.posix.basename(name));
}
