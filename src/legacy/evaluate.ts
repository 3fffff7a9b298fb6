import protobuf from "protobufjs";
import { bech32 } from "bech32";
import { bech32Prefixes } from "../codec/addresses.js";
import { goJson } from "../codec/amino/aminoJson.js";
import type { JsonValue, ProtoMessage } from "../codec/json/renderProto3.js";
import type { Template } from "../tables/legacyTemplates.js";
import { fillText } from "../tables/legacyTemplates.js";
import type { Answer, LegacyDeps } from "./legacyDeps.js";
import { LegacyError } from "./legacyErrors.js";
import { fieldText } from "../codec/fieldText.js";
import { GoDurationError, goDurationSeconds } from "../codec/goDuration.js";
import { intTextOutOfRange } from "../codec/sdkNumberRange.js";

/** What templates of one request can read. */
export interface Scope {
  path: Record<string, string>;
  query: Record<string, string | undefined>;
  body?: Record<string, unknown>;
  baseReq?: Record<string, unknown>;
  calls?: Map<string, Answer>;
  item?: unknown;
  deps: LegacyDeps;
}

/** The value a template stands for; undefined when what it refers to is absent. */
export function evaluate(template: Template, scope: Scope): unknown {
  switch (template.kind) {
    case "literal":
      return template.value;
    case "array":
      return template.items.map((t) => evaluate(t, scope));
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, t] of template.fields) {
        const value = evaluate(t, scope);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case "map": {
      const value = evaluate(template.from, scope);
      const key = typeof value === "string" ? value : JSON.stringify(value ?? "");
      if (!template.values.has(key)) throw new LegacyError(400, fillText(template.error, { value: key }));
      return template.values.get(key);
    }
    case "each": {
      const list = evaluate(template.from, scope);
      if (list === undefined || list === null) return undefined;
      if (!Array.isArray(list))
        throw new LegacyError(400, `failed to decode JSON payload: ${template.from.kind === "ref" ? template.from.text.slice(1) : "value"}: expected an array`);
      return list.map((item) => evaluate(template.value, { ...scope, item }));
    }
    case "first":
      for (const option of template.options) {
        const value = evaluate(option, scope);
        if (value !== undefined && value !== null && value !== "") return value;
      }
      return undefined;
    case "join": {
      const parts = template.parts.map((part) => evaluate(part, scope));
      if (parts.some((part) => part === undefined || part === null)) return undefined;
      return parts.map((part) => fieldText(part)).join("");
    }
    case "ref":
      return pipe(reference(template, scope), template, scope);
  }
}

function reference(template: Extract<Template, { kind: "ref" }>, scope: Scope): unknown {
  switch (template.source) {
    case "path":
      return scope.path[template.path[0]!];
    case "query": {
      const value = scope.query[template.path[0]!];
      return value === "" ? undefined : value;
    }
    case "body":
      return dig(scope.body, template.path);
    case "base_req":
      return dig(scope.baseReq, template.path);
    case "item":
      return dig(scope.item, template.path);
    case "calls": {
      const answer = scope.calls?.get(template.path[0]!);
      return answer ? renderPath(answer, template.path.slice(1), scope.deps) : undefined;
    }
  }
}

function dig(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A field of a call's answer in amino JSON (the whole answer for an empty path). */
function renderPath(answer: Answer, path: string[], deps: LegacyDeps): JsonValue {
  let type = answer.type;
  let msg = answer.msg;
  for (const [i, name] of path.entries()) {
    const field = type.fields[name]!;
    const value = msg?.[name];
    if (i === path.length - 1 || !(field.resolvedType instanceof protobuf.Type) || field.repeated) return deps.amino.renderField(type, field, value);
    type = field.resolvedType;
    msg = (value ?? {}) as ProtoMessage;
  }
  return deps.amino.render(type, msg);
}

function pipe(value: unknown, template: Extract<Template, { kind: "ref" }>, scope: Scope): unknown {
  let out = value;
  for (const name of template.pipes) {
    if (out === undefined) return undefined;
    switch (name) {
      case "account":
      case "validator": {
        const prefixes = bech32Prefixes(scope.deps.bech32Prefix);
        out = reencode(fieldText(out), name === "account" ? prefixes.account : prefixes.validatorOperator, template.text);
        break;
      }
      case "json":
        out = goJson(out);
        break;
      case "parse_json":
        try {
          out = JSON.parse(fieldText(out));
        } catch {
          // not JSON: the text as it is
        }
        break;
      case "upper":
        out = fieldText(out).toUpperCase();
        break;
      case "coins":
        out = parseCoins(fieldText(out), template.text);
        break;
      case "unix_after":
        out = String(Math.floor(Date.now() / 1000) + durationSeconds(fieldText(out), template.text));
        break;
      case "hex": {
        const text = fieldText(out);
        if (!/^([0-9a-fA-F]{2})*$/.test(text)) throw new LegacyError(400, `invalid hex "${text}"`);
        out = Buffer.from(text, "hex").toString("base64");
        break;
      }
    }
  }
  return out;
}

/** The same address bytes under another bech32 prefix (an operator's account, an account's operator address). */
function reencode(address: string, prefix: string, what: string): string {
  try {
    const decoded = bech32.decode(address, 1023);
    return bech32.encode(prefix, decoded.words, 1023);
  } catch (err) {
    throw new LegacyError(400, `invalid address "${address}" (${field(what)}): ${(err as Error).message}`);
  }
}

/** Address bytes of a bech32 string of any prefix, or undefined when it is not bech32. */
export function addressBytes(address: unknown): string | undefined {
  if (typeof address !== "string" || address === "") return undefined;
  try {
    return Buffer.from(bech32.fromWords(bech32.decode(address, 1023).words)).toString("hex");
  } catch {
    return undefined;
  }
}

/** "10uhub,5ucat" → [{denom, amount}] (sdk.ParseCoinsNormalized without decimal units); "" → []. */
function parseCoins(text: string, what: string): Array<{ denom: string; amount: string }> {
  if (text.trim() === "") return [];
  return text.split(",").map((part) => {
    const match = /^\s*(\d+)\s*([a-zA-Z][a-zA-Z0-9/:._-]{2,127})\s*$/.exec(part);
    if (!match || intTextOutOfRange(match[1]!)) throw new LegacyError(400, `invalid coin expression: ${part.trim()} (${field(what)})`);
    return { denom: match[2]!, amount: String(BigInt(match[1]!)) };
  });
}

/** A Go duration ("1h30m", "10m", "90s") in whole seconds. */
function durationSeconds(text: string, what: string): number {
  try {
    return Math.floor(goDurationSeconds(text));
  } catch (err) {
    if (err instanceof GoDurationError) throw new LegacyError(400, `${err.message} (${field(what)})`);
    throw err;
  }
}

function field(what: string): string {
  return what
    .replace(/^\$\w+\./, "")
    .split("|")[0]!
    .trim();
}
