import { expect } from "chai";
import { http } from "../helpers/http.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";

/**
 * Over HTTP, against a started dev chain: (1) request text that made a
 * backtracking regex quadratic (100,000 digits then a letter) is answered 400;
 * (2) an integer field takes only an integer's text — a JSON number in
 * exponent, fraction or "-0" form is refused as v0.41's jsonpb / amino refuse
 * it, instead of being read as the number JavaScript makes of it.
 */
describe("hardening: number texts of requests", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain();
  const post = (route: string, body: string) =>
    http(`${chain.node().restUrl}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body });
  const from = () => chain.accounts()[0]!;
  const baseReq = (extra: string) => `{"from":"${from()}","chain_id":"devnet-1"${extra}}`;
  const LONG = "1".repeat(100_000) + "x";
  const LONG_INT = "1".repeat(100_000);

  describe("inputs that a backtracking regex or a BigInt took super-linear time on: 400", () => {
    const rows: Array<{ name: string; route: () => string; body: () => string; message: string }> = [
      {
        name: "coinswap deposit deadline",
        route: () => "/coinswap/liquidities/ucat/deposit",
        body: () => `{"base_req":${baseReq("")},"max_token":"10","exact_standard_amt":"10","min_liquidity":"1","deadline":"${LONG}","sender":"${from()}"}`,
        message: "time: unknown unit",
      },
      {
        name: "coinswap withdraw deadline",
        route: () => "/coinswap/liquidities/ucat/withdraw",
        body: () => `{"base_req":${baseReq("")},"withdraw_liquidity":"10","min_token":"1","min_standard_amt":"1","deadline":"${LONG}","sender":"${from()}"}`,
        message: "time: unknown unit",
      },
      {
        name: "base_req.gas_adjustment with gas auto",
        route: () => `/bank/accounts/${from()}/transfers`,
        body: () => `{"base_req":${baseReq(`,"gas":"auto","gas_adjustment":"${LONG}"`)},"amount":[{"denom":"uhub","amount":"1"}]}`,
        message: "strconv.ParseFloat",
      },
      {
        name: "base_req.fees amount of 100,000 digits",
        route: () => `/bank/accounts/${from()}/transfers`,
        body: () => `{"base_req":${baseReq(`,"fees":[{"denom":"uhub","amount":"${LONG_INT}"}]`)},"amount":[{"denom":"uhub","amount":"1"}]}`,
        message: "integer out of range",
      },
      {
        name: "gateway simulate: a MsgSend amount of 100,000 digits",
        route: () => "/core/tx/v1beta1/simulate",
        body: () =>
          `{"tx":{"body":{"messages":[{"@type":"/core.bank.v1beta1.MsgSend","from_address":"${from()}","to_address":"${from()}","amount":[{"denom":"uhub","amount":"${LONG_INT}"}]}]}}}`,
        message: "integer out of range",
      },
      {
        name: "gateway simulate: gas_limit of 100,000 digits",
        route: () => "/core/tx/v1beta1/simulate",
        body: () => `{"tx":{"auth_info":{"fee":{"gas_limit":"${LONG_INT}"}}}}`,
        message: "out of the uint64 range",
      },
    ];
    for (const row of rows) {
      it(row.name, async () => {
        const answer = await post(row.route(), row.body());
        expect(answer.status, answer.text.slice(0, 300)).to.equal(400);
        expect(answer.text).to.include(row.message);
      });
    }
  });

  describe("integer fields refuse every other JSON number form", () => {
    const FORMS = ["1e-999", "123e-999999", "-0", "200e3", "2E5", "200000.0", "0.5", "1e999", "-1", "1.5e3"];
    const fields: Array<{ name: string; route: string; body: (n: string) => string; refusal: (n: string) => string }> = [
      {
        name: "gateway simulate: auth_info.fee.gas_limit",
        route: "/core/tx/v1beta1/simulate",
        body: (n) => `{"tx":{"body":{"messages":[]},"auth_info":{"fee":{"gas_limit":${n}}}}}`,
        refusal: (n) => `tx.auth_info.fee.gas_limit: "${n}" is not a valid uint64`,
      },
      {
        name: "gateway simulate: body.timeout_height",
        route: "/core/tx/v1beta1/simulate",
        body: (n) => `{"tx":{"body":{"messages":[],"timeout_height":${n}}}}`,
        refusal: (n) => `tx.body.timeout_height: "${n}" is not a valid uint64`,
      },
      {
        name: "gateway simulate: auth_info.signer_infos[0].sequence",
        route: "/core/tx/v1beta1/simulate",
        body: (n) => `{"tx":{"body":{"messages":[]},"auth_info":{"signer_infos":[{"sequence":${n}}]}}}`,
        refusal: (n) => `tx.auth_info.signer_infos[0].sequence: "${n}" is not a valid uint64`,
      },
      {
        name: "legacy POST /txs: fee.gas",
        route: "/txs",
        body: (n) => `{"tx":{"msg":[{"type":"cosmos-sdk/MsgSend","value":{}}],"fee":{"amount":[],"gas":${n}},"signatures":[],"memo":""},"mode":"sync"}`,
        refusal: () => "fee.gas",
      },
    ];
    for (const field of fields) {
      for (const form of FORMS) {
        it(`${field.name} = ${form}: 400`, async () => {
          const answer = await post(field.route, field.body(form));
          expect(answer.status, answer.text).to.equal(400);
          expect(answer.text).to.include(field.refusal(form).replace(/"/g, '\\"'));
        });
      }
    }

    for (const base of ["sequence", "account_number", "timeout_height", "gas"]) {
      for (const form of FORMS) {
        it(`legacy base_req.${base} = ${form}: 400`, async () => {
          const answer = await post(
            `/bank/accounts/${from()}/transfers`,
            `{"base_req":${baseReq(`,"${base}":${form}`)},"amount":[{"denom":"uhub","amount":"1"}]}`,
          );
          expect(answer.status, answer.text).to.equal(400);
          expect(answer.text).to.include(base); // "base_req.<key>: ...", or for gas Go's "gas must be either integer or auto"
        });
      }
    }

    it("controls: the integer's own forms, as a number and as a string, pass the field (the tx is then refused for lacking messages)", async () => {
      for (const form of ["200000", '"200000"', "0", '"0"']) {
        const answer = await post("/core/tx/v1beta1/simulate", `{"tx":{"body":{"messages":[]},"auth_info":{"fee":{"gas_limit":${form}}}}}`);
        expect(answer.text, form).to.include("must contain at least one message");
        expect(answer.text, form).not.to.include("gas_limit");
      }
    });
  });
});
