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
  const found = name ? root.lookup(name) : null;
  if (!(found instanceof protobuf.Type)) throw new UnknownTypeUrlError(typeUrl);
  return found;
}

export function typeUrlOf(type: protobuf.Type): string {
  return "/" + type.fullName.replace(/^\./, "");
}

export function lookupType(root: protobuf.Root, name: string): protobuf.Type {
  return root.lookupType(name.replace(/^\.?/, "."));
}
