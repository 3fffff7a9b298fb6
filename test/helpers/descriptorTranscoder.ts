import protobuf from "protobufjs";
import descriptor from "protobufjs/ext/descriptor/index.js";
import type { HttpRule } from "../../src/tables/export/httpRules.js";
import { decodeDescriptorSet } from "./routeExports.js";

type Segment = { literal: string } | { field: string };

interface Binding {
  verb: string;
  template: string;
  segments: Segment[];
  body?: string;
  /** "/pkg.Service/Method", as the ABCI query path names it */
  methodPath: string;
  requestType: protobuf.Type;
}

export type Transcoded = { binding: Binding; request: protobuf.Message } | { binding: Binding; refused: string };

/**
 * An HTTP→gRPC transcoder that knows nothing but a FileDescriptorSet, as
 * Envoy's gRPC-JSON transcoder works: the google.api.http options of its
 * methods (rules and additional bindings) make the templates; a request path
 * is matched segment by segment, a literal before a variable (trying the next
 * when one fails further on), the first template registered winning among
 * equal shapes; path variables, then (without a body rule) the query
 * parameters by dotted field name, fill the request; body "*" is the whole
 * request message in JSON; unknown query parameters are ignored.
 */
export class DescriptorTranscoder {
  readonly bindings: Binding[] = [];

  constructor(set: Uint8Array) {
    const root = (protobuf.Root as unknown as { fromDescriptor(bytes: Uint8Array): protobuf.Root }).fromDescriptor(set);
    root.resolveAll();
    void descriptor; // loads the extension that adds Root.fromDescriptor
    for (const file of decodeDescriptorSet(set)) {
      for (const service of file.service ?? []) {
        for (const method of service.method) {
          const rule = method.options?.[".google.api.http"] as HttpRule | undefined;
          if (!rule) continue;
          const requestType = root.lookupType(method.input_type.slice(1));
          const methodPath = `/${file.package}.${service.name}/${method.name}`;
          for (const r of [rule, ...(rule.additional_bindings ?? [])]) {
            const [verb, template] = r.get !== undefined ? ["get", r.get] : ["post", r.post!];
            // Envoy's path matcher refuses a second method for a template of the same shape (and with it the configuration)
            const shape = `${verb} ${template.replace(/\{[^}]+\}/g, "*")}`;
            const twin = this.bindings.find((b) => `${b.verb} ${b.template.replace(/\{[^}]+\}/g, "*")}` === shape);
            if (twin) throw new Error(`Cannot register ${methodPath}: ${template} has the shape of ${twin.template} (${twin.methodPath})`);
            this.bindings.push({ verb, template, segments: parseTemplate(template), body: r.body, methodPath, requestType });
          }
        }
      }
    }
  }

  /** The method and request a request maps to, or undefined when no template matches. */
  transcode(verb: string, url: URL, body?: unknown): Transcoded | undefined {
    const parts = url.pathname.split("/").slice(1).map(decodeURIComponent);
    const binding = this.match(verb.toLowerCase(), parts);
    if (!binding) return undefined;
    const type = binding.requestType;
    const json: Record<string, unknown> = binding.body === "*" ? structuredClone((body ?? {}) as Record<string, unknown>) : {};
    const assign = (dotted: string, values: string[]) => {
      const fields = fieldPath(type, dotted);
      if (!fields) return;
      let target = json;
      for (const f of fields.slice(0, -1)) target = (target[f.name] ??= {}) as Record<string, unknown>;
      const last = fields.at(-1)!;
      target[last.name] = last.repeated ? values.map((v) => scalar(last, v)) : scalar(last, values.at(-1)!);
    };
    try {
      binding.segments.forEach((s, i) => {
        if ("field" in s) assign(s.field, [parts[i]!]);
      });
      if (binding.body === undefined) for (const key of new Set(url.searchParams.keys())) assign(key, url.searchParams.getAll(key));
    } catch (err) {
      return { binding, refused: (err as Error).message }; // a gateway answers 400
    }
    return { binding, request: type.fromObject(json) };
  }

  private match(verb: string, parts: string[]): Binding | undefined {
    const candidates = this.bindings.filter((b) => b.verb === verb && b.segments.length === parts.length);
    // the trie's walk: at each segment a literal first, then a variable; the first registered among equals
    const walk = (depth: number, left: Binding[]): Binding | undefined => {
      if (left.length === 0) return undefined;
      if (depth === parts.length) return left[0];
      const literal = left.filter((b) => "literal" in b.segments[depth]! && b.segments[depth].literal === parts[depth]);
      return (
        walk(depth + 1, literal) ??
        walk(
          depth + 1,
          left.filter((b) => "field" in b.segments[depth]!),
        )
      );
    };
    return walk(0, candidates);
  }
}

/** "/a/{b}/c" → segments; the tables write single-segment variables only ({b} = {b=*}). */
function parseTemplate(template: string): Segment[] {
  return template
    .split("/")
    .slice(1)
    .map((part) => {
      const variable = /^\{([^=}]+)(?:=\*)?\}$/.exec(part)?.[1];
      if (variable) return { field: variable };
      if (part.startsWith("{")) throw new Error(`template segment ${part} is not one this transcoder reads`);
      return { literal: part };
    });
}

function fieldPath(type: protobuf.Type, dotted: string): protobuf.Field[] | undefined {
  const fields: protobuf.Field[] = [];
  let current: protobuf.Type | undefined = type;
  for (const name of dotted.split(".")) {
    // protobufjs names a field from a descriptor by its json_name; the template and the query name it as the .proto does
    const field: protobuf.Field | undefined = current?.fieldsArray.find((f) => (f as { protoName?: string }).protoName === name || f.name === name);
    if (!field) return undefined;
    field.resolve();
    fields.push(field);
    current = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
  }
  return fields;
}

/** A text value in the JSON form protobufjs' fromObject takes for the field. */
function scalar(field: protobuf.Field, text: string): unknown {
  switch (field.type) {
    case "bool":
      return text === "true";
    case "int32":
    case "uint32":
    case "sint32":
    case "fixed32":
    case "sfixed32":
    case "double":
    case "float":
      if (Number.isNaN(Number(text))) throw new Error(`${field.name}: "${text}" is not a number`);
      return Number(text);
    case "int64":
    case "uint64":
    case "sint64":
    case "fixed64":
    case "sfixed64":
      if (!/^-?\d+$/.test(text)) throw new Error(`${field.name}: "${text}" is not an integer`);
      return text; // fromObject reads 64-bit integers from text
    case "bytes":
      return Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    default:
      return text; // strings, enum names
  }
}
