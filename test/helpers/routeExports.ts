import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { load } from "js-yaml";
import type protobuf from "protobufjs";
import { loadProtoRoot } from "../../src/codec/protoRoot.js";
import { loadNamesTable } from "../../src/names/namesTable.js";
import type { WordMap } from "../../src/names/wordMap.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

const CLI = path.join(PACKAGE_ROOT, "bin", "chain-rest.js");
export const BUF = path.join(PACKAGE_ROOT, "node_modules", ".bin", "buf");

/** `chain-rest routes --format <format> --names <profile>`, run as a process: stdout as bytes, stderr as text. */
export async function exportRoutes(format: string, profile: string): Promise<{ stdout: Buffer; stderr: string }> {
  const run = await promisify(execFile)(process.execPath, [CLI, "routes", "--format", format, "--names", profile], {
    encoding: "buffer",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { stdout: run.stdout, stderr: run.stderr.toString() };
}

export function profileMap(profile: string): WordMap {
  return loadNamesTable().get(profile)!;
}

/** One route of routes.yaml as an HTTP binding, read from the YAML itself in a profile's words. */
export interface TableBinding {
  selector: string;
  verb: "get" | "post";
  path: string;
  body?: string;
  match?: Record<string, string>;
  reject?: Record<string, string>;
}

export function tableBindings(map: WordMap): TableBinding[] {
  type Entry = { get?: string; post?: string; method: string; body?: string; match?: Record<string, string>; reject?: Record<string, string> };
  const entries = load(fs.readFileSync(path.join(PACKAGE_ROOT, "routes.yaml"), "utf8")) as Entry[];
  return map.deep(entries).map((e) => ({
    selector: e.method.replace("/", "."),
    verb: e.get ? "get" : "post",
    path: (e.get ?? e.post)!,
    ...(e.body ? { body: e.body } : {}),
    ...(e.match ? { match: e.match } : {}),
    ...(e.reject ? { reject: e.reject } : {}),
  }));
}

export interface DecodedFile {
  name: string;
  package?: string;
  dependency?: string[];
  syntax?: string;
  message_type?: Array<Record<string, unknown>>;
  enum_type?: Array<Record<string, unknown>>;
  service?: Array<{ name: string; method: Array<{ name: string; input_type: string; output_type: string; options?: Record<string, unknown> }> }>;
  extension?: Array<Record<string, unknown>>;
}

let descriptorRoot: protobuf.Root | undefined;

/** A FileDescriptorSet (or a buf image, which has its layout) decoded by protobufjs, google.api.http option included. */
export function decodeDescriptorSet(bytes: Uint8Array): DecodedFile[] {
  descriptorRoot ??= loadProtoRoot();
  const FileDescriptorSet = descriptorRoot.lookupType("google.protobuf.FileDescriptorSet");
  return (FileDescriptorSet.toObject(FileDescriptorSet.decode(bytes), { defaults: false, arrays: false }) as { file: DecodedFile[] }).file;
}

/** The routes the exports carry: of two routes of one verb and template shape, the first (a gateway takes one per template). */
export function exportedBindings(table: TableBinding[]): TableBinding[] {
  const shape = (b: TableBinding) => `${b.verb} ${b.path.replace(/\{[^}]+\}/g, "*")}`;
  return table.filter((b, i) => table.findIndex((other) => shape(other) === shape(b)) === i);
}
