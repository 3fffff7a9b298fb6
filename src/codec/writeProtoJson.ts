/**
 * Build step (npm run build, after tsc): writes the protobuf root's
 * descriptors as JSON beside the compiled module, which a start loads instead
 * of parsing every .proto file.
 *
 *   node dist/codec/writeProtoJson.js
 */
import fs from "node:fs";
import { BUILT_ROOT_FILE, loadProtoRoot } from "./protoRoot.js";

fs.writeFileSync(BUILT_ROOT_FILE, JSON.stringify(loadProtoRoot().toJSON()));
