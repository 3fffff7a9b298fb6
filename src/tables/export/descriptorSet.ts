import protobuf from "protobufjs";
import type { WordMap } from "../../names/wordMap.js";
import { PROTO_DIR } from "../../util/paths.js";
import type { HttpRule } from "./httpRules.js";
import { profileFileName, protoFileName, sortByImports, syntaxOf } from "./protoFiles.js";

/** The option of a method that carries its HttpRule, as the descriptor types of the proto tree name it. */
const HTTP_OPTION = ".google.api.http";
const ANNOTATIONS_FILE = "google/api/annotations.proto";

// FieldDescriptorProto.Type and .Label numbers
const SCALAR_TYPES: Record<string, number> = {
  double: 1,
  float: 2,
  int64: 3,
  uint64: 4,
  int32: 5,
  fixed64: 6,
  fixed32: 7,
  bool: 8,
  string: 9,
  bytes: 12,
  uint32: 13,
  sfixed32: 15,
  sfixed64: 16,
  sint32: 17,
  sint64: 18,
};
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const LABEL_OPTIONAL = 1;
const LABEL_REQUIRED = 2;
const LABEL_REPEATED = 3;

type Json = Record<string, unknown>;

interface FileParts {
  name: string;
  package: string;
  syntax: string;
  dependency: Set<string>;
  message_type: Json[];
  enum_type: Json[];
  service: Json[];
  extension: Json[];
}

/**
 * A FileDescriptorSet of the whole proto tree (read from the .proto files, so
 * each definition keeps its file) in a naming profile's words: files, packages
 * and type names renamed, each file's dependencies those of the types it
 * refers to, files ordered so that each comes after its imports (as Envoy's
 * transcoder builds them). Each method in `rules` carries its google.api.http
 * option from the table, and no other option is written: the gogoproto and
 * file options say nothing to a gateway. `seedRoot` is the tree loaded with
 * the default names (loadProtoRoot).
 */
export function writeDescriptorSet(seedRoot: protobuf.Root, map: WordMap, rules: Map<string, HttpRule>): Uint8Array {
  const writer = new DescriptorWriter(map, rules);
  writer.namespace(seedRoot);
  const files = sortByImports([...writer.files.values()].map((f) => ({ ...f, dependency: [...f.dependency].sort() })));
  const FileDescriptorSet = seedRoot.lookupType("google.protobuf.FileDescriptorSet");
  return FileDescriptorSet.encode(FileDescriptorSet.fromObject({ file: files.map(withoutEmpty) })).finish();
}

class DescriptorWriter {
  readonly files = new Map<string, FileParts>();

  constructor(
    private readonly map: WordMap,
    private readonly rules: Map<string, HttpRule>,
  ) {}

  /** Walks packages; every message, enum, service and extension at package level goes to its file. */
  namespace(ns: protobuf.Namespace): void {
    for (const child of ns.nestedArray) {
      if (child instanceof protobuf.Type) this.file(child).message_type.push(this.message(child, this.file(child)));
      else if (child instanceof protobuf.Enum) this.file(child).enum_type.push(enumProto(child));
      else if (child instanceof protobuf.Service) this.file(child).service.push(this.service(child, this.file(child)));
      else if (child instanceof protobuf.Field) this.file(child).extension.push(this.field(child, this.file(child)));
      else if (child instanceof protobuf.Namespace) this.namespace(child);
    }
  }

  private file(object: protobuf.ReflectionObject): FileParts {
    const name = this.fileName(object);
    let file = this.files.get(name);
    if (!file) {
      const pkg = object.parent!.fullName.slice(1);
      file = {
        name,
        package: pkg ? this.map.protoName(pkg) : "",
        syntax: syntaxOf(object.filename),
        dependency: new Set(),
        message_type: [],
        enum_type: [],
        service: [],
        extension: [],
      };
      this.files.set(name, file);
    }
    return file;
  }

  private fileName(object: protobuf.ReflectionObject): string {
    return profileFileName(protoFileName(object, PROTO_DIR), this.map);
  }

  private typeName(type: protobuf.ReflectionObject, from: FileParts): string {
    const file = this.fileName(topLevel(type));
    if (file !== from.name) from.dependency.add(file);
    return `.${this.map.protoName(type.fullName.slice(1))}`;
  }

  private message(type: protobuf.Type, file: FileParts): Json {
    const nested: Json[] = [];
    const enums: Json[] = [];
    const extensions: Json[] = [];
    for (const child of type.nestedArray) {
      if (child instanceof protobuf.Type) nested.push(this.message(child, file));
      else if (child instanceof protobuf.Enum) enums.push(enumProto(child));
      else if (child instanceof protobuf.Field) extensions.push(this.field(child, file));
    }
    const oneofs = type.oneofsArray;
    const fields = type.fieldsArray
      .filter((f) => !f.declaringField) // the extensions other files declare on this type
      .map((f) => {
        if (!(f instanceof protobuf.MapField)) return this.field(f, file, oneofs);
        const entry = this.mapEntry(f, file);
        nested.push(entry);
        return {
          name: f.name,
          number: f.id,
          label: LABEL_REPEATED,
          type: TYPE_MESSAGE,
          type_name: `.${this.map.protoName(type.fullName.slice(1))}.${entry.name as string}`,
          json_name: jsonName(f.name),
        };
      });
    return {
      name: type.name,
      field: fields,
      nested_type: nested,
      enum_type: enums,
      extension: extensions,
      oneof_decl: oneofs.map((o) => ({ name: o.name })),
      // protobufjs keeps ranges with their last number, descriptors with the one after it
      extension_range: ((type.extensions ?? []) as Array<[number, number]>).map(([start, end]) => ({ start, end: end + 1 })),
      reserved_range: ((type.reserved ?? []) as Array<[number, number] | string>).flatMap((r) =>
        typeof r === "string" ? [] : [{ start: r[0], end: r[1] + 1 }],
      ),
      reserved_name: (type.reserved ?? []).filter((r) => typeof r === "string"),
    };
  }

  /** A field, or an extension (with its extendee) when `field.extend` is set. */
  field(field: protobuf.Field, file: FileParts, oneofs: protobuf.OneOf[] = []): Json {
    field.resolve();
    const label = field.repeated ? LABEL_REPEATED : field.required ? LABEL_REQUIRED : LABEL_OPTIONAL;
    const out = this.typed(field.name, field.id, label, field.type, field.resolvedType, file);
    if (field.partOf) out.oneof_index = oneofs.indexOf(field.partOf);
    if (field.extensionField) out.extendee = this.typeName(field.extensionField.parent!, file);
    const defaultValue = field.options?.default as string | number | boolean | undefined;
    if (defaultValue !== undefined) out.default_value = String(defaultValue);
    return out;
  }

  /** The synthesized entry message of a map field, as protoc writes it: FieldNameEntry { key = 1; value = 2; }. */
  private mapEntry(field: protobuf.MapField, file: FileParts): Json {
    field.resolve();
    return {
      name: `${field.name.replace(/(?:^|_+)(.)?/g, (_all, c: string | undefined) => (c ?? "").toUpperCase())}Entry`,
      field: [this.typed("key", 1, LABEL_OPTIONAL, field.keyType, null, file), this.typed("value", 2, LABEL_OPTIONAL, field.type, field.resolvedType, file)],
      options: { map_entry: true },
    };
  }

  private typed(name: string, number: number, label: number, type: string, resolved: protobuf.ReflectionObject | null, file: FileParts): Json {
    const out: Json = {
      name,
      number,
      label,
      type: resolved instanceof protobuf.Enum ? TYPE_ENUM : resolved ? TYPE_MESSAGE : scalarType(type, name),
      json_name: jsonName(name),
    };
    if (resolved) out.type_name = this.typeName(resolved, file);
    return out;
  }

  private service(service: protobuf.Service, file: FileParts): Json {
    const fullName = this.map.protoName(service.fullName.slice(1));
    return {
      name: service.name,
      method: service.methodsArray.map((method) => {
        method.resolve();
        const rule = this.rules.get(`${fullName}.${method.name}`);
        if (rule) file.dependency.add(ANNOTATIONS_FILE);
        const { selector: _selector, ...binding } = rule ?? {}; // an annotation names no selector: it sits on its method
        return {
          name: method.name,
          input_type: this.typeName(method.resolvedRequestType!, file),
          output_type: this.typeName(method.resolvedResponseType!, file),
          ...(method.requestStream ? { client_streaming: true } : {}),
          ...(method.responseStream ? { server_streaming: true } : {}),
          ...(rule ? { options: { [HTTP_OPTION]: binding } } : {}),
        };
      }),
    };
  }
}

function enumProto(type: protobuf.Enum): Json {
  const numbers = Object.values(type.values);
  return {
    name: type.name,
    value: Object.entries(type.values).map(([name, number]) => ({ name, number })),
    ...(new Set(numbers).size < numbers.length ? { options: { allow_alias: true } } : {}),
  };
}

function scalarType(type: string, fieldName: string): number {
  const number = SCALAR_TYPES[type];
  if (number === undefined) throw new Error(`field ${fieldName}: no descriptor type for ${type}`);
  return number;
}

/** The message, enum, service or extension at package level that holds `object`. */
function topLevel(object: protobuf.ReflectionObject): protobuf.ReflectionObject {
  let top = object;
  while (top.parent instanceof protobuf.Type) top = top.parent;
  return top;
}

/** protoc's json_name: underscores dropped, the letter after each one upper-cased. */
function jsonName(name: string): string {
  return name.replace(/_+(.)?/g, (_all, c: string | undefined) => (c ?? "").toUpperCase());
}

/** protobufjs' fromObject takes the lists as they are; empty ones are left out, as protoc leaves them. */
function withoutEmpty(file: Record<string, unknown>): Json {
  return Object.fromEntries(Object.entries(file).filter(([, v]) => !(Array.isArray(v) && v.length === 0) && v !== ""));
}
