import protobuf from "protobufjs";

/** A table names something proto/ does not have; the message says what, the caller adds where (file, entry, key). */
export class ProtoLookupError extends Error {}

/** A dotted field path with a name that is not a field of `owner` (null: the path went through a scalar). */
export class MissingFieldError extends ProtoLookupError {
  constructor(
    readonly fieldName: string,
    readonly owner: protobuf.Type | null,
  ) {
    super(`${fieldName} is not a field of ${owner?.fullName.slice(1) ?? "a scalar"} (its fields: ${fieldNames(owner)})`);
  }
}

/** "core.bank.v1beta1.Query/AllBalances" → the resolved method. */
export function lookupMethod(root: protobuf.Root, fullName: string): protobuf.Method {
  const [serviceName, methodName] = fullName.split("/") as [string, string];
  const service = root.lookup(serviceName);
  if (!(service instanceof protobuf.Service)) throw new ProtoLookupError(`service ${serviceName} does not exist in proto/`);
  const method = service.methods[methodName];
  if (!method) throw new ProtoLookupError(`${serviceName} has no method ${methodName} (it has: ${Object.keys(service.methods).join(", ")})`);
  method.resolve();
  return method;
}

/** "pagination.limit" → the fields it goes through, from `type` down. */
export function lookupFieldPath(type: protobuf.Type, dotted: string): protobuf.Field[] {
  const fields: protobuf.Field[] = [];
  let current: protobuf.Type | null = type;
  for (const name of dotted.split(".")) {
    const field: protobuf.Field | undefined = current?.fields[name];
    if (!field) throw new MissingFieldError(name, current);
    fields.push(field);
    current = field.resolvedType instanceof protobuf.Type ? field.resolvedType : null;
  }
  return fields;
}

/** The field names of a type, for messages ("none" for a scalar or an empty message). */
export function fieldNames(type: protobuf.Type | null): string {
  return type?.fieldsArray.map((f) => f.name).join(", ") || "none";
}

/** A table's pattern, anchored: the whole text must match. */
export function anchoredPattern(text: string): RegExp {
  try {
    return new RegExp(`^(?:${text})$`);
  } catch (err) {
    throw new ProtoLookupError(`not a regular expression: ${(err as Error).message}`);
  }
}
