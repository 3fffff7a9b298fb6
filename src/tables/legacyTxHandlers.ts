import type { CheckSpec, Handler, MsgSpec, ParamSpec } from "./legacyRouteSpec.js";
import type { Source } from "./legacyTemplates.js";
import type { LegacyEntryContext } from "./legacyEntryContext.js";
import type { CompiledHandlers } from "./legacyQueryHandlers.js";
import { lookupType } from "../codec/typeRegistry.js";

/** `generate:` — the unsigned StdTx of these Msgs, built from base_req and the route's fields, after the checks. */
export function generateHandlers(ctx: LegacyEntryContext): CompiledHandlers {
  const generate = ctx.entry.generate!;
  const msgs = generate.msgs.map((raw, i): MsgSpec => {
    const key = `generate.msgs[${i}]`;
    const protoName = ctx.transforms.typesByName.get(raw.type);
    if (!protoName) return ctx.fail(`${key}.type`, `${raw.type} is not an amino name of amino-transforms.yaml`);
    const protoType = lookupType(ctx.root, protoName);
    let forEach: MsgSpec["forEach"];
    if (raw.for_each) {
      const call = ctx.methodCall("items", raw.for_each.method, raw.for_each.request, `${key}.for_each.method`, ctx.scope(["path", "body", "base_req"]));
      forEach = { call, items: ctx.fieldPath(call.responseType, raw.for_each.items, `${key}.for_each.items`) };
    }
    const sources: Source[] = forEach ? ["path", "body", "base_req", "item"] : ["path", "body", "base_req"];
    return { aminoType: raw.type, protoType, value: ctx.template(raw.value, ctx.scope(sources), `${key}.value`), forEach };
  });
  const checks = (generate.checks ?? []).map((raw, i): CheckSpec => {
    const key = `generate.checks[${i}]`;
    const scope = ctx.scope(["path", "body", "base_req"]);
    if (raw.same_address) {
      return {
        kind: "same_address",
        a: ctx.template(raw.same_address[0], scope, `${key}.same_address[0]`),
        b: ctx.template(raw.same_address[1], scope, `${key}.same_address[1]`),
        status: raw.status,
        error: raw.error,
      };
    }
    return {
      kind: "matches",
      value: ctx.template(raw.matches![0], scope, `${key}.matches[0]`),
      pattern: ctx.regex(raw.matches![1], `${key}.matches[1]`),
      status: raw.status,
      error: raw.error,
    };
  });
  return { handlers: [{ handler: { kind: "generate", msgs, checks }, query: new Map() }], query: new Map() };
}

/** `action:` — broadcast, encode or decode a transaction, or search transactions by events. */
export function actionHandlers(ctx: LegacyEntryContext, verb: string): CompiledHandlers {
  const { entry } = ctx;
  const action = entry.action!;
  if (entry.modes && action !== "broadcast-std-tx") ctx.fail("modes", "only broadcast-std-tx takes modes");
  if (entry.conditions && action !== "search-txs") ctx.fail("conditions", "only search-txs takes conditions");
  if (entry.paging && action !== "search-txs") ctx.fail("paging", `does not apply to action ${action}`);
  if ((entry.each !== undefined) !== (action === "search-txs-each"))
    ctx.fail(entry.each ? "each" : undefined, entry.each ? "only search-txs-each takes each" : "search-txs-each needs each");
  let query = new Map<string, ParamSpec>();
  let handler: Handler;
  if (action === "broadcast-std-tx") {
    if (!entry.modes) ctx.fail(undefined, "broadcast-std-tx needs modes");
    handler = { kind: action, modes: new Map(Object.entries(entry.modes)) };
  } else if (action === "search-txs") {
    if (!entry.conditions?.["*"]) ctx.fail("conditions", 'search-txs needs a "*" condition for the other parameters');
    handler = {
      kind: action,
      conditions: new Map(Object.entries(entry.conditions)),
      paging: { defaultLimit: entry.paging?.default_limit ?? 30, of: "request" },
    };
  } else if (action === "search-txs-each") {
    const each = entry.each!;
    const searches = Object.entries(each.searches).map(([name, events]) => {
      for (const [i, event] of events.entries()) {
        for (const [, variable] of event.matchAll(/\{path\.([^}]+)\}/g))
          if (!ctx.variables.includes(variable!)) ctx.fail(`each.searches.${name}[${i}]`, `the path has no variable {${variable}}`);
      }
      return { name, events };
    });
    handler = { kind: action, searches, select: each.select, otherwise: each.otherwise, limit: each.limit ?? 30 };
    const names = searches.map((s) => s.name);
    query = ctx.queryParams(
      { [each.select]: { description: `${names.join(", ")} (words separated by spaces: the first of them named); absent: all of them` } },
      new Set(),
    );
  } else {
    handler = { kind: action };
  }
  const isGet = action === "search-txs" || action === "search-txs-each";
  if (isGet !== (verb === "get")) ctx.fail(verb, `action ${action} is a ${isGet ? "GET" : "POST"} route`);
  return { handlers: [{ handler, query }], query };
}

/** `answer:` — a fixed error (a path the real server refuses). */
export function answerHandlers(ctx: LegacyEntryContext): CompiledHandlers {
  const { status, error } = ctx.entry.answer!;
  return { handlers: [{ handler: { kind: "answer", status, error }, query: new Map() }], query: new Map() };
}
