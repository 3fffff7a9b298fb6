import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { load } from "js-yaml";
import { PACKAGE_ROOT, PROTO_DIR } from "../../../src/util/paths.js";
import { profileFileName } from "../../../src/tables/export/protoFiles.js";
import type { HttpRule } from "../../../src/tables/export/httpRules.js";
import { decodeDescriptorSet, exportedBindings, exportRoutes, profileMap, tableBindings, type TableBinding } from "../../helpers/routeExports.js";

/** A rule and its additional bindings, flattened to one binding each (the selector is the rule's). */
function flatten(selector: string, rule: HttpRule): TableBinding[] {
  const one = (r: HttpRule): TableBinding => {
    const verb = r.get !== undefined ? "get" : "post";
    const route = { selector, verb, path: (r.get ?? r.post)! } as TableBinding;
    return r.body ? { ...route, body: r.body } : route;
  };
  return [one(rule), ...(rule.additional_bindings ?? []).map(one)];
}

const key = (b: TableBinding) => `${b.verb} ${b.path} ${b.selector} ${b.body ?? ""}`;

/** Each export is run once in this file (a process start each) and read by every test that needs it. */
const runs = new Map<string, ReturnType<typeof exportRoutes>>();
const exportOnce = (format: string, profile: string) => {
  const id = `${format} ${profile}`;
  if (!runs.has(id)) runs.set(id, exportRoutes(format, profile));
  return runs.get(id)!;
};

for (const profile of ["seed", "cosmos"]) {
  describe(`route exports, ${profile} profile (chain-rest routes --format …)`, function () {
    this.timeout(60_000);
    const map = profileMap(profile);
    const table = tableBindings(map);
    const exportedTable = exportedBindings(table);

    it("google-api-service: the YAML parses and each rule round-trips to the table's routes (template, verb, selector, body)", async () => {
      const { stdout } = await exportOnce("google-api-service", profile);
      const config = load(stdout.toString()) as { type: string; config_version: number; http: { rules: HttpRule[] } };
      expect(config.type).to.equal("google.api.Service");
      expect(config.config_version).to.equal(3);
      const selectors = config.http.rules.map((r) => r.selector!);
      expect(new Set(selectors).size, "one rule per method").to.equal(selectors.length);
      const exported = config.http.rules.flatMap((r) => flatten(r.selector!, r));
      expect(exported.map(key).sort()).to.deep.equal(exportedTable.map(key).sort());
      expect(exportedTable.length).to.equal(table.length - 2); // the two routes a template cannot tell from another (service requests by provider, bech32 bytes)
      if (profile === "cosmos") expect(selectors).to.include("cosmos.bank.v1beta1.Query.AllBalances");
    });

    it("lists on stderr what the forms cannot say: each match/reject pattern, the height header, each legacy route", async () => {
      const { stderr } = await exportOnce("google-api-service", profile);
      const lines = stderr.split("\n");
      for (const route of table) {
        for (const [variable, pattern] of Object.entries({ ...route.match, ...route.reject })) {
          expect(
            lines.some((l) => l.includes(`${route.verb.toUpperCase()} ${route.path}: {${variable}} must`) && l.includes(pattern)),
            route.path,
          ).to.equal(true);
        }
      }
      for (const route of table.filter((b) => !exportedTable.includes(b))) {
        expect(
          lines.some((l) => l.includes(`${route.verb.toUpperCase()} ${route.path}: left out of both exports`)),
          route.path,
        ).to.equal(true);
      }
      expect(stderr).to.include(`all ${exportedTable.length} exported gateway routes: the x-cosmos-block-height header`);
      const legacy = load(fs.readFileSync(path.join(PACKAGE_ROOT, "legacy-routes.yaml"), "utf8")) as unknown[];
      expect(lines.filter((l) => l.includes(": legacy route (amino JSON)"))).to.have.length(legacy.length);
    });

    it("descriptor-set: protobufjs decodes it; every file of proto/ is there after its imports; each routed method's option is its table route", async () => {
      const { stdout } = await exportOnce("descriptor-set", profile);
      const files = decodeDescriptorSet(stdout);
      const seen = new Set<string>();
      for (const file of files) {
        for (const dependency of file.dependency ?? []) expect(seen.has(dependency), `${file.name} after ${dependency}`).to.equal(true);
        seen.add(file.name);
      }
      const protoFiles = (fs.readdirSync(PROTO_DIR, { recursive: true }) as string[]).filter((n) => n.endsWith(".proto"));
      for (const name of protoFiles) expect(seen.has(profileFileName(name.split(path.sep).join("/"), map)), name).to.equal(true);
      const options: TableBinding[] = [];
      for (const file of files) {
        for (const service of file.service ?? []) {
          for (const method of service.method) {
            const rule = method.options?.[".google.api.http"] as HttpRule | undefined;
            if (!rule) continue;
            expect(method.input_type).to.match(/^\./);
            options.push(...flatten(`${file.package}.${service.name}.${method.name}`, rule));
          }
        }
      }
      expect(options.map(key).sort()).to.deep.equal(exportedTable.map(key).sort());
      if (profile === "cosmos") expect(files.map((f) => f.package)).to.not.include("core.bank.v1beta1");
    });
  });
}

describe("docs/guide/tables-elsewhere.md: what the exports cannot say", function () {
  this.timeout(60_000);

  it("lists the exporter's lines for the seed profile, route by route", async () => {
    const { stderr } = await exportOnce("descriptor-set", "seed");
    const printed = stderr
      .split("\n")
      .filter((l) => l.startsWith("  "))
      .map((l) => l.trim());
    const guide = fs.readFileSync(path.join(PACKAGE_ROOT, "docs/guide/tables-elsewhere.md"), "utf8");
    const listed = /<!-- unsayable:start -->\n+([\s\S]*?)\n+<!-- unsayable:end -->/
      .exec(guide)![1]!
      .split("\n")
      .map((l) => l.replace(/^- /, ""));
    expect(listed).to.deep.equal(printed);
  });
});
