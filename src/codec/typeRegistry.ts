import protobuf from "protobufjs";
import { names } from "../names/activeNames.js";

export class UnknownTypeUrlError extends Error {
  constructor(readonly typeUrl: string) {
    super(`unable to resolve type URL ${typeUrl}: no such type is registered`);
  }
}

/**
 * Resolves `Any.type_url` values ("/core.bank.v1beta1.MsgSend", also the
 * "type.googleapis.com/..." form) to message types of the loaded proto tree.
 * Every message in proto/ is registered, so rendering never fails on a known type.
 */
export function resolveTypeUrl(root: protobuf.Root, typeUrl: string): protobuf.Type {
  // keyed by the profile's name, so the neutral and the profile's URL of one type share an entry
  const name = names().protoName(typeUrl.slice(typeUrl.lastIndexOf("/") + 1));
  let known = resolved.get(root);
  if (!known) resolved.set(root, (known = new Map<string, protobuf.Type>()));
  const kept = known.get(name);
  if (kept) return kept;
  const found = name ? root.lookup("." + name) : null;
  if (!(found instanceof protobuf.Type)) throw new UnknownTypeUrlError(typeUrl);
  known.set(name, found); // only names of existing types: bounded by the proto tree, whatever clients send
  return found;
}

/** Types found by name, per root: protobufjs' lookup walks the namespaces on every call. */
const resolved = new WeakMap<protobuf.Root, Map<string, protobuf.Type>>();

export function typeUrlOf(type: protobuf.Type): string {
  return "/" + type.fullName.replace(/^\./, "");
}

/**
 * A message type by full name; the node's and the services' code write the
 * neutral names ("core.bank.v1beta1.MsgSend"), found under the naming profile's.
 */
export function lookupType(root: protobuf.Root, name: string): protobuf.Type {
  return root.lookupType("." + names().protoName(name.replace(/^\./, "")));
}

/** An enum by full name (neutral or the profile's), as lookupType. */
export function lookupEnum(root: protobuf.Root, name: string): protobuf.Enum {
  return root.lookupEnum("." + names().protoName(name.replace(/^\./, "")));
}

/** The neutral full name of a type (what the node's module code compares with). */
export function neutralTypeName(type: protobuf.Type): string {
  return names().neutralProtoName(type.fullName.replace(/^\./, ""));
}

/** A type URL or ABCI path of data (the profile's words) in the neutral words the code compares with. */
export function neutralTypeUrl(typeUrl: unknown): string {
  return names().neutralPath(typeof typeUrl === "string" ? typeUrl : "");
}

/** A neutral type URL or ABCI path written by the code, in the profile's words (for data). */
export function profileTypeUrl(typeUrl: string): string {
  return names().profilePath(typeUrl);
}
