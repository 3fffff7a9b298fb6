import protobuf from "protobufjs";

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
  const name = typeUrl.slice(typeUrl.lastIndexOf("/") + 1);
  let known = resolved.get(root);
  if (!known) resolved.set(root, (known = new Map<string, protobuf.Type>()));
  const kept = known.get(name);
  if (kept) return kept;
  const found = name ? root.lookup(name) : null;
  if (!(found instanceof protobuf.Type)) throw new UnknownTypeUrlError(typeUrl);
  known.set(name, found); // only names of existing types: bounded by the proto tree, whatever clients send
  return found;
}

/** Types found by name, per root: protobufjs' lookup walks the namespaces on every call. */
const resolved = new WeakMap<protobuf.Root, Map<string, protobuf.Type>>();

export function typeUrlOf(type: protobuf.Type): string {
  return "/" + type.fullName.replace(/^\./, "");
}

export function lookupType(root: protobuf.Root, name: string): protobuf.Type {
  return root.lookupType(name.replace(/^\.?/, "."));
}
