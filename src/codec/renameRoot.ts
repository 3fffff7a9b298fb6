import protobuf from "protobufjs";
import type { WordMap } from "../names/wordMap.js";

type JsonNode = {
  nested?: Record<string, JsonNode>;
  fields?: Record<string, { type: string }>;
  methods?: Record<string, { requestType: string; responseType: string }>;
};

/**
 * The proto tree under a naming profile's package names: every namespace is
 * renamed (core.bank.v1beta1 → cosmos.bank.v1beta1) and every reference to a
 * message or enum is rewritten to the renamed absolute name of what it resolved
 * to, so type URLs, ABCI query paths and method names follow. The neutral root
 * is left as it is.
 */
export function renameRoot(root: protobuf.Root, map: WordMap): protobuf.Root {
  if (map.isDefault) return root;
  const json = root.toJSON() as JsonNode;
  const absolute = (type: protobuf.ReflectionObject | null) => (type ? "." + map.protoName(type.fullName.slice(1)) : undefined);
  const walk = (node: JsonNode, source: protobuf.ReflectionObject, fullName: string): JsonNode => {
    const out: JsonNode = { ...node };
    if (node.fields && source instanceof protobuf.Type) {
      out.fields = Object.fromEntries(
        Object.entries(node.fields).map(([name, field]) => [name, { ...field, type: absolute(source.fields[name]!.resolvedType) ?? field.type }]),
      );
    }
    if (node.methods && source instanceof protobuf.Service) {
      out.methods = Object.fromEntries(
        Object.entries(node.methods).map(([name, method]) => {
          const resolved = source.methods[name]!;
          return [name, { ...method, requestType: absolute(resolved.resolvedRequestType)!, responseType: absolute(resolved.resolvedResponseType)! }];
        }),
      );
    }
    if (node.nested && source instanceof protobuf.Namespace) {
      out.nested = Object.fromEntries(
        Object.entries(node.nested).map(([name, child]) => {
          const childName = fullName ? `${fullName}.${name}` : name;
          const renamed = map.protoName(childName).split(".").at(-1)!;
          return [renamed, walk(child, source.get(name)!, childName)];
        }),
      );
    }
    return out;
  };
  const renamed = protobuf.Root.fromJSON(walk(json, root, ""));
  renamed.resolveAll();
  return renamed;
}
