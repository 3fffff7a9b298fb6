import protobuf from "protobufjs";
import type { JsonValue, ProtoMessage } from "../json/renderProto3.js";
import type { AminoJsonRenderer } from "./aminoJson.js";

/**
 * A legacy querier's result in amino JSON, shared by the legacy routes and the node's `/custom`
 * queriers: a whole answer, or one field of it picked by a path of fields.
 */
export function renderAminoTop(amino: AminoJsonRenderer, type: protobuf.Type, msg: ProtoMessage, wrap: boolean): JsonValue {
  return wrap ? amino.renderTop(type, msg) : amino.render(type, msg);
}

/** A field of the answer as the result: a list, a scalar, or a message (wrapped when of a registered type); absent → undefined. */
export function renderAminoField(
  amino: AminoJsonRenderer,
  type: protobuf.Type,
  msg: ProtoMessage,
  path: protobuf.Field[],
  wrap: boolean,
): JsonValue | undefined {
  let owner = type;
  let current: ProtoMessage | undefined = msg;
  for (const [i, field] of path.entries()) {
    const value: unknown = current?.[field.name];
    const last = i === path.length - 1;
    if (field.repeated || field instanceof protobuf.MapField) return amino.renderField(owner, field, value);
    if (field.resolvedType instanceof protobuf.Type) {
      if (value === null || value === undefined) return undefined;
      if (last) return renderAminoTop(amino, field.resolvedType, value as ProtoMessage, wrap);
      owner = field.resolvedType;
      current = value as ProtoMessage;
      continue;
    }
    if (!last) return undefined;
    return amino.renderField(owner, field, value);
  }
  return undefined;
}
