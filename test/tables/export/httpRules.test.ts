import { expect } from "chai";
import { load } from "js-yaml";
import { compileRoute } from "../../../src/tables/compileRoutes.js";
import { writeDescriptorSet } from "../../../src/tables/export/descriptorSet.js";
import { httpRules } from "../../../src/tables/export/httpRules.js";
import { serviceConfigYaml } from "../../../src/tables/export/serviceConfig.js";
import { loadProtoRoot } from "../../../src/codec/protoRoot.js";
import { WordMap } from "../../../src/names/wordMap.js";
import { decodeDescriptorSet } from "../../helpers/routeExports.js";

describe("HTTP rules of a table whose method has several routes", () => {
  const root = loadProtoRoot();
  const source = { file: "test.yaml", index: 0, label: "test" };
  const routes = [
    { get: "/balances/{address}", method: "core.bank.v1beta1.Query/AllBalances" },
    { post: "/balances", method: "core.bank.v1beta1.Query/AllBalances", body: "*" },
    { get: "/accounts/{address}/balances", method: "core.bank.v1beta1.Query/AllBalances" },
    { get: "/params", method: "core.bank.v1beta1.Query/Params" },
  ].map((entry) => compileRoute(entry as never, source, root));
  const expected = {
    selector: "core.bank.v1beta1.Query.AllBalances",
    get: "/balances/{address}",
    additional_bindings: [{ post: "/balances", body: "*" }, { get: "/accounts/{address}/balances" }],
  };

  it("writes the first route as the rule and the others as additional_bindings, in table order", () => {
    const config = load(serviceConfigYaml(httpRules(routes))) as { http: { rules: unknown[] } };
    expect(config.http.rules).to.deep.equal([expected, { selector: "core.bank.v1beta1.Query.Params", get: "/params" }]);
  });

  it("puts the same rule, without its selector, on the method in the descriptor set", () => {
    const files = decodeDescriptorSet(writeDescriptorSet(root, new WordMap("seed"), httpRules(routes)));
    const query = files.find((f) => f.name === "core/bank/v1beta1/query.proto")!;
    const methods = query.service![0]!.method;
    const { selector: _selector, ...binding } = expected;
    expect(methods.find((m) => m.name === "AllBalances")!.options).to.deep.equal({ ".google.api.http": binding });
    expect(methods.find((m) => m.name === "Balance")!.options).to.equal(undefined);
    expect(query.dependency).to.include("google/api/annotations.proto");
  });
});
