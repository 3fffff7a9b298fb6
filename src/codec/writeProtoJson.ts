/**
 * Build step (npm run build, after tsc): writes the protobuf root's
 * descriptors as JSON beside the compiled module, which a start loads instead
 * of parsing every .proto file.
 *
 *   node dist/codec/writeProtoJson.js
 */
import fs from "node:fs";
import type protobuf from "protobufjs";
import { BUILT_ROOT_FILE, loadProtoRoot } from "./protoRoot.js";

const json = loadProtoRoot().toJSON() as protobuf.INamespace & { nested: Record<string, protobuf.AnyNestedObject> };
// google.protobuf first: the options that gogoproto and cosmos_proto extend then exist when their
// extensions are added; until then protobufjs looks each pending extension up again at every type
// it adds, which would slow every start's load of the root
const { google, ...rest } = json.nested;
fs.writeFileSync(BUILT_ROOT_FILE, JSON.stringify({ ...json, nested: google ? { google, ...rest } : rest }));
