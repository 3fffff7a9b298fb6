import protobuf from "protobufjs";
import { customType } from "../../codec/fieldKinds.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { decScaledTextOutOfRange, intTextOutOfRange } from "../../codec/sdkNumberRange.js";

/** A decoded message holds an sdk.Int or sdk.Dec past its range. */
class BigNumberRangeError extends Error {}

/**
 * Refuses sdk.Int texts past 256 bits and sdk.Dec past 316 (as their Go
 * Unmarshal does while the tx is decoded), so that no keeper parses a text of
 * a million digits into a BigInt (a cost that grows faster than its length).
 */
export function checkBigNumberFields(type: protobuf.Type, msg: ProtoMessage): void {
  for (const field of type.fieldsArray) {
    const value = msg[field.name];
    if (value === undefined || value === null) continue;
    const values: unknown[] = field.repeated && Array.isArray(value) ? value : [value];
    const resolved = field.resolve().resolvedType;
    if (resolved instanceof protobuf.Type) {
      for (const item of values) checkBigNumberFields(resolved, item as ProtoMessage);
      continue;
    }
    const custom = customType(field);
    if (custom === undefined) continue;
    for (const item of values) {
      const text = typeof item === "string" ? item : new TextDecoder().decode(item as Uint8Array);
      if (custom === "Int" && intTextOutOfRange(text)) throw new BigNumberRangeError(`${field.name}: integer out of range (more than 256 bits)`);
      if (custom === "Dec" && decScaledTextOutOfRange(text)) throw new BigNumberRangeError(`${field.name}: decimal out of range (more than 316 bits)`);
    }
  }
}
