import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "bech32";
import { Secp256k1HdWallet, makeCosmoshubPath, makeSignDoc, type AminoMsg, type StdFee } from "@cosmjs/amino";
import { Codec } from "../../src/codec/codec.js";
import { compileTables } from "../../src/commands/restServer.js";
import { readDevAccounts } from "../../src/commands/home.js";
import type { OpenApiDocument } from "../../src/openapi/openApiTypes.js";
import { ResponseValidator } from "../../src/openapi/responseValidator.js";
import type { LegacyRouteSpec } from "../../src/tables/legacyRouteSpec.js";
import { http, type HttpAnswer } from "../helpers/http.js";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { legacyExamples, legacyUrl } from "../helpers/legacyExamples.js";

type Json = Record<string, any>;

const codec = new Codec();
const tables = compileTables(codec);
const DEPRECATION_HEADERS = {
  deprecation: "true",
  link: '<https://docs.cosmos.network/master/migrations/rest.html>; rel="deprecation"',
  warning: '199 - "this endpoint is deprecated and may not work as before, see deprecation link for more info"',
};

/** Routes the init genesis cannot answer 200 (the real server cannot either), each tested on its own below. */
const NOT_IN_SWEEP: Record<string, string> = {
  "get /gov/proposals/{proposal-id}/proposer": "the genesis proposals were not submitted by a transaction, so no proposer is found (404)",
};

/**
 * The legacy route family against `chain-rest start` on the `init` genesis:
 * every GET route answers 200 in its envelope with the deprecation headers
 * where due and a body that fits its OpenAPI schema; one test per row of the
 * specification's Versioning table and per Legacy behaviour; errors and the
 * generate-only POST routes.
 */
describe("e2e: legacy routes", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  let state: Json;
  let examples: Record<string, string>;
  let txHash: string;
  let document: OpenApiDocument;
  const get = (route: string) => http(`${node.restUrl}${route}`);
  const post = (route: string, body: unknown, method = "POST") =>
    http(`${node.restUrl}${route}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const result = async (route: string) => {
    const r = await get(route);
    expect(r.status, `${route}: ${r.text}`).to.equal(200);
    return r.body.result;
  };

  before(async () => {
    initDevHome(home, { mnemonic: TEST_MNEMONIC });
    state = (JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8")) as { app_state: Json }).app_state;
    node = await startNode(home);
    document = (await get("/swagger")).body as OpenApiDocument;

    // one legacy transaction, so that the transaction routes have something to show
    const wallet = await Secp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [makeCosmoshubPath(0)] });
    const [account] = await wallet.getAccounts();
    const to = readDevAccounts(home)!.accounts[1]!.address;
    const msgs: AminoMsg[] = [
      { type: "core-sdk/MsgSend", value: { from_address: account!.address, to_address: to, amount: [{ denom: "uhub", amount: "10" }] } },
    ];
    const fee: StdFee = { amount: [{ denom: "uhub", amount: "2000" }], gas: "200000" };
    const { signature } = await wallet.signAmino(account!.address, makeSignDoc(msgs, fee, "devnet-1", "", 0, 0));
    const sent = await post("/txs", { tx: { msg: msgs, fee, signatures: [signature], memo: "" }, mode: "block" });
    expect(sent.body.code, sent.text).to.equal(undefined);
    txHash = sent.body.txhash;

    examples = legacyExamples(state, account!.address, txHash);
  });
  after(() => node?.proc.stop());

  /** A URL for a route: path variables from the genesis, the query parameters some routes need. */
  function urlOf(route: LegacyRouteSpec, overrides: Record<string, string> = {}): string {
    return legacyUrl(route, state, examples, overrides);
  }

  it("sweep: every legacy GET route answers 200 in its envelope, with the deprecation headers where due, in its documented schema", async () => {
    const validator = new ResponseValidator(document);
    const problems: string[] = [];
    let swept = 0;
    let withHeaders = 0;
    const gets = tables.legacy.routes.filter((r) => r.verb === "get");
    for (const route of gets) {
      if (route.handlers.at(-1)!.handler.kind === "answer" || NOT_IN_SWEEP[`get ${route.path}`]) continue;
      const url = urlOf(route);
      const r = await get(url);
      swept++;
      const where = `GET ${url} → ${r.status}`;
      if (r.status !== 200) {
        problems.push(`${where}: ${r.text.slice(0, 300)}`);
        continue;
      }
      if (route.envelope === "height") {
        if (!r.body || Object.keys(r.body).join(",") !== "height,result" || !/^\d+$/.test(r.body.height))
          problems.push(`${where}: not in the {height, result} envelope: ${r.text.slice(0, 200)}`);
        // the plain height header every client can read, as the gateway family's
        else if (r.body.height !== "0" && r.headers.get("x-cosmos-block-height") !== r.body.height)
          problems.push(`${where}: header x-cosmos-block-height is ${r.headers.get("x-cosmos-block-height")}, the envelope's height ${r.body.height}`);
      } else if (r.body && typeof r.body === "object" && Object.keys(r.body).join(",") === "height,result") {
        problems.push(`${where}: wrapped, but the route answers bare`);
      }
      for (const [name, value] of Object.entries(DEPRECATION_HEADERS)) {
        const header = r.headers.get(name);
        if (route.deprecationHeaders ? header !== value : header !== null) problems.push(`${where}: header ${name} is ${header}`);
      }
      if (route.deprecationHeaders) withHeaders++;
      const errors = validator.check("get", route.path, 200, r.body);
      if (errors.length > 0) problems.push(`${where}: the body does not fit the documented schema: ${errors.join("; ")}\n${r.text.slice(0, 400)}`);
    }
    console.log(
      `      ${swept} legacy GET routes answered 200 (of ${gets.length}; ${gets.length - swept} tested on their own), ${withHeaders} with the deprecation headers, ${swept - withHeaders} without`,
    );
    expect(problems, problems.join("\n\n")).to.deep.equal([]);
    expect(swept).to.equal(gets.length - 1 - Object.keys(NOT_IN_SWEEP).length);
  });

  it("routes the genesis cannot answer say why, as the real server does", async () => {
    const proposer = await get(`/gov/proposals/1/proposer`);
    expect([proposer.status, proposer.body]).to.deep.equal([404, { error: "failed to find the proposer for proposalID 1" }]);
    expect(proposer.headers.get("deprecation")).to.equal("true");
    const params = await get("/gov/parameters/other");
    expect([params.status, params.body]).to.deep.equal([404, { error: "custom/gov/params/other is not a valid query request path: unknown request" }]);
  });

  describe("the specification's Versioning table, one row each", () => {
    it("POST /txs, /txs/encode, /txs/decode, GET /txs/{hash}, GET /txs: an error for a transaction without amino serialization", async () => {
      // a protobuf tx whose Msg (an IBC client update) has no amino name
      const TxBody = codec.type("core.tx.v1beta1.TxBody");
      const MsgUpdateClient = codec.type("ibc.core.client.v1.MsgUpdateClient");
      const body = TxBody.encode({
        messages: [
          {
            type_url: "/ibc.core.client.v1.MsgUpdateClient",
            value: MsgUpdateClient.encode({ client_id: "07-tendermint-0", signer: examples.address }).finish(),
          },
        ],
      }).finish();
      const raw = codec.type("core.tx.v1beta1.TxRaw").encode({ body_bytes: body, auth_info_bytes: new Uint8Array(), signatures: [] }).finish();
      const r = await post("/txs/decode", { tx: Buffer.from(raw).toString("base64") });
      expect(r.status).to.equal(500);
      expect(r.body.error).to.equal(
        "this transaction cannot be displayed via legacy REST endpoints, because it does not support Amino serialization. Please either use CLI, gRPC, gRPC-gateway, or directly query the consensus RPC endpoint to query this transaction. The new REST endpoint (via gRPC-gateway) is /core/tx/v1beta1/txs/decode. Please also see theREST endpoints migration guide at https://docs.cosmos.network/master/migrations/rest.html for more info",
      );
      const stdTx = { msg: [{ type: "core-sdk/MsgUpdateClient", value: {} }], fee: { amount: [], gas: "0" }, signatures: [], memo: "" };
      expect((await post("/txs", { tx: stdTx, mode: "block" })).body.error).to.match(/^this transaction cannot be broadcasted via legacy REST endpoints/);
      expect((await post("/txs/encode", { type: "core-sdk/StdTx", value: stdTx })).body.error).to.match(
        /^this endpoint does not support txs that are not serializable via Amino/,
      );
      // (GET /txs/{hash} and GET /txs with such a tx: test/legacy/legacyTxQueries.test.ts, as the node cannot execute IBC core Msgs)
    });

    it("GET /gov/proposals/{id}/votes[/{voter}]: option is an int32", async () => {
      const votes = await result(`/gov/proposals/${examples["proposal-id"]}/votes`);
      const expected = (state.gov.votes as Json[]).map((v) => ({
        proposal_id: String(v.proposal_id),
        voter: v.voter,
        option: { VOTE_OPTION_YES: 1, VOTE_OPTION_ABSTAIN: 2, VOTE_OPTION_NO: 3, VOTE_OPTION_NO_WITH_VETO: 4 }[v.option as string],
      }));
      expect(votes).to.have.deep.members(expected);
      expect(await result(`/gov/proposals/${examples["proposal-id"]}/votes/${examples.voter}`)).to.deep.equal(expected.find((v) => v.voter === examples.voter));
    });

    it("GET /staking/* returning validators: consensus_pubkey is amino {type, value} with the raw key, status an int32", async () => {
      const [validator] = await result("/staking/validators");
      const genesis = (state.staking.validators as Json[]).find((v) => v.operator_address === validator.operator_address)!;
      expect(validator.consensus_pubkey).to.deep.equal({ type: "consensus/PubKeyEd25519", value: genesis.consensus_pubkey.key });
      expect(Buffer.from(validator.consensus_pubkey.value, "base64")).to.have.length(32);
      expect(validator.status).to.equal(3);
      for (const route of [
        `/staking/validators/${validator.operator_address}`,
        `/staking/delegators/${examples.delegatorAddr}/validators/${examples.validatorAddr}`,
      ]) {
        const one = await result(route);
        expect(one.consensus_pubkey.type, route).to.equal("consensus/PubKeyEd25519");
        expect(one.status, route).to.be.a("number");
      }
    });

    it("GET /staking/validators: the status parameter takes the protobuf enum names", async () => {
      const bonded = await result("/staking/validators?status=BOND_STATUS_BONDED");
      expect(bonded.map((v: Json) => v.status)).to.satisfy((s: number[]) => s.length > 0 && s.every((x) => x === 3));
      const unbonded = await result("/staking/validators?status=BOND_STATUS_UNBONDED");
      expect(unbonded.every((v: Json) => v.status === 1)).to.equal(true);
      expect((await get("/staking/validators?status=bonded")).status).to.equal(400);
    });

    it("QueryBalance /bank/balances/{address}: no change, [{denom, amount}]", async () => {
      const genesis = (state.bank.balances as Json[]).find((b) => b.address === examples.address)!;
      expect(await result(`/bank/balances/${examples.address}?height=1`)).to.deep.equal(genesis.coins);
      expect(await result(`/bank/balances/${examples.address}?denom=uhub&height=1`)).to.deep.equal(genesis.coins.find((c: Json) => c.denom === "uhub"));
    });

    it("QueryValidators /staking/validators: no unbonding_height nor jailed, empty description fields omitted", async () => {
      const validators = await result("/staking/validators?status=BOND_STATUS_UNBONDED");
      const all = [...(await result("/staking/validators")), ...validators];
      for (const v of all) {
        expect(v).to.not.have.any.keys("unbonding_height", "jailed");
        for (const value of Object.values(v.description)) expect(value).to.not.equal("");
      }
      const genesis = (state.staking.validators as Json[]).find((v) => v.description.identity === "" || v.description.website === "")!;
      const shown = all.find((v: Json) => v.operator_address === genesis.operator_address);
      expect(Object.keys(shown.description)).to.deep.equal(Object.keys(genesis.description).filter((k) => genesis.description[k] !== ""));
      expect(Object.keys(shown)).to.deep.equal([
        "operator_address",
        "consensus_pubkey",
        "status",
        "tokens",
        "delegator_shares",
        "description",
        "unbonding_time",
        "commission",
        "min_self_delegation",
      ]);
    });

    it("QueryDelegatorDelegations: balance is {amount, denom}, the delegation object is added", async () => {
      const delegations = await result(`/staking/delegators/${examples.delegatorAddr}/delegations`);
      expect(delegations[0]).to.have.all.keys("delegation", "balance");
      expect(delegations[0].delegation).to.have.all.keys("delegator_address", "validator_address", "shares");
      expect(delegations[0].balance).to.have.all.keys("denom", "amount");
      expect(delegations[0].balance.denom).to.equal("uhub");
      expect(delegations[0].delegation.shares).to.match(/^\d+\.\d{18}$/);
    });

    it("QueryRedelegations: entries under redelegation_entry without creation_height, the redelegation object with entries null", async () => {
      const genesis = state.staking.redelegations[0];
      const [red] = await result(`/staking/redelegations?delegator=${genesis.delegator_address}`);
      expect(red.redelegation).to.deep.equal({
        delegator_address: genesis.delegator_address,
        validator_src_address: genesis.validator_src_address,
        validator_dst_address: genesis.validator_dst_address,
        entries: null,
      });
      expect(red.entries[0]).to.have.all.keys("redelegation_entry", "balance");
      expect(red.entries[0].redelegation_entry).to.have.all.keys("completion_time", "initial_balance", "shares_dst");
    });

    it("QueryUnbondingDelegation: creation_height removed", async () => {
      const genesis = state.staking.unbonding_delegations[0];
      const ubd = await result(`/staking/delegators/${genesis.delegator_address}/unbonding_delegations/${genesis.validator_address}`);
      expect(ubd.entries[0]).to.have.all.keys("completion_time", "initial_balance", "balance");
      expect(ubd.entries[0].initial_balance).to.equal(genesis.entries[0].initial_balance);
    });

    it("Validator outstanding rewards: root field rewards", async () => {
      const rewards = await result(`/distribution/validators/${examples.validatorAddr}/outstanding_rewards`);
      expect(Object.keys(rewards)).to.deep.equal(["rewards"]);
      expect(rewards.rewards[0].amount).to.match(/^\d+\.\d{18}$/);
    });

    it("Validator commission: root field commission", async () => {
      const validator = await result(`/distribution/validators/${examples.validatorAddr}`);
      expect(Object.keys(validator)).to.deep.equal(["operator_address", "self_bond_rewards", "val_commission"]);
      expect(Object.keys(validator.val_commission)).to.deep.equal(["commission"]);
      expect(validator.operator_address).to.match(/^hub1/);
    });

    it("Validator slashes, delegation rewards: no change", async () => {
      const rewards = await result(`/distribution/delegators/${examples.delegatorAddr}/rewards`);
      expect(Object.keys(rewards)).to.deep.equal(["rewards", "total"]);
      expect(rewards.rewards[0]).to.have.all.keys("validator_address", "reward");
      const none = await result(`/distribution/delegators/${readDevAccounts(home)!.accounts.at(-1)!.address}/rewards`);
      expect(none).to.deep.equal({ rewards: null, total: [] });
    });

    it("QueryTx GET /txs, GET /txs/{hash}: no tags, no result, no coin_flow; the fields at the top level", async () => {
      const one = await get(`/txs/${txHash}`);
      expect(Object.keys(one.body)).to.deep.equal(["height", "txhash", "data", "raw_log", "logs", "gas_wanted", "gas_used", "tx", "timestamp"]);
      const found = await get("/txs?message.action=send");
      expect(found.body.txs[0]).to.deep.equal(one.body);
      for (const tx of [one.body, found.body.txs[0]]) expect(tx).to.not.have.any.keys("tags", "result", "coin_flow");
    });
  });

  describe("the specification's Legacy behaviours, one each", () => {
    it("1. GET /staking/validators takes status BOND_STATUS_*; the earlier lower-case values are refused", async () => {
      for (const status of ["BOND_STATUS_BONDED", "BOND_STATUS_UNBONDED", "BOND_STATUS_UNBONDING"])
        expect((await get(`/staking/validators?status=${status}`)).status, status).to.equal(200);
      for (const status of ["bonded", "unbonded", "unbonding"]) {
        const r = await get(`/staking/validators?status=${status}`);
        expect(r.status).to.equal(400);
        expect(r.body.error).to.equal(
          `core sdk v0.40 introduces a breaking change on this endpoint: instead of querying using \`?status=${status}\`, please use \`status=BOND_STATUS_${status.toUpperCase()}\`. For more info, please see our REST endpoint migration guide at https://docs.cosmos.network/master/migrations/rest.html`,
        );
      }
    });

    it("2. POST /txs takes {tx, mode}: a StdTx without signatures is refused by the node", async () => {
      const r = await post("/txs", {
        tx: {
          msg: [
            {
              type: "core-sdk/MsgSend",
              value: { from_address: examples.address, to_address: examples.delegatorAddr, amount: [{ denom: "uhub", amount: "1" }] },
            },
          ],
          fee: { amount: [], gas: "200000" },
          signatures: null,
          memo: "",
        },
        mode: "sync",
      });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ code: 15, codespace: "sdk" });
      expect(r.body.raw_log).to.equal("no signatures supplied");
    });

    it("3. GET /txs filters by events and GET /txs/{hash} answers one transaction, both in the transaction query result shape", async () => {
      const found = await get(`/txs?message.sender=${examples.address}&transfer.amount=10uhub`);
      expect(found.body.total_count).to.equal("1");
      expect(found.body.txs[0].txhash).to.equal(txHash);
      expect(found.body.txs[0].logs[0].events.find((e: Json) => e.type === "transfer").attributes.map((a: Json) => a.key)).to.deep.equal([
        "recipient",
        "sender",
        "amount",
      ]);
      expect((await get(`/txs?message.sender=${examples.address}&transfer.amount=11uhub`)).body).to.include({ total_count: "0" });
      expect((await get(`/txs/${txHash}`)).body.txhash).to.equal(txHash);
    });

    it("4. a legacy transaction is a StdTx with signatures null before signing, addresses with the prefix hub, denoms uhub", async () => {
      const r = await post(`/bank/accounts/${examples.delegatorAddr}/transfers`, {
        base_req: { from: examples.address, chain_id: "devnet-1" },
        amount: [{ denom: "uhub", amount: "5" }],
      });
      expect(r.body.type).to.equal("core-sdk/StdTx");
      expect(r.body.value.signatures).to.equal(null);
      expect(r.body.value.msg[0].value.from_address).to.match(/^hub1/);
      expect(r.body.value.msg[0].value.amount[0].denom).to.equal("uhub");
      expect(r.body.value.fee).to.deep.equal({ amount: [], gas: "200000" });
    });
  });

  describe("generate-only POST and PUT routes: each builds the Msgs its entry declares", () => {
    /** [verb path, body (without base_req), the msgs expected] for every generate entry of legacy-routes.yaml. */
    const cases = (): Array<[string, Json, Json[]]> => {
      const { address: A, validatorAddr: V } = examples;
      const B = state.staking.delegations[1].delegator_address as string;
      const V2 = state.staking.redelegations[0].validator_dst_address as string;
      const coins = [{ denom: "uhub", amount: "5" }];
      const ctx = examples["request-context-id"];
      const lock = examples["hash-lock"];
      return [
        [
          "post /bank/accounts/{address}/transfers",
          { amount: coins },
          [{ type: "core-sdk/MsgSend", value: { from_address: A, to_address: B, amount: coins } }],
        ],
        [
          "post /distribution/delegators/{delegatorAddr}/rewards",
          {},
          [{ type: "core-sdk/MsgWithdrawDelegationReward", value: { delegator_address: A, validator_address: V } }],
        ],
        [
          "post /distribution/delegators/{delegatorAddr}/rewards/{validatorAddr}",
          {},
          [{ type: "core-sdk/MsgWithdrawDelegationReward", value: { delegator_address: A, validator_address: V } }],
        ],
        [
          "post /distribution/delegators/{delegatorAddr}/withdraw_address",
          { withdraw_address: B },
          [{ type: "core-sdk/MsgModifyWithdrawAddress", value: { delegator_address: A, withdraw_address: B } }],
        ],
        [
          "post /distribution/validators/{validatorAddr}/rewards",
          {},
          [
            { type: "core-sdk/MsgWithdrawValidatorCommission", value: { validator_address: V } },
            { type: "core-sdk/MsgWithdrawDelegationReward", value: { delegator_address: A, validator_address: V } },
          ],
        ],
        [
          "post /gov/proposals",
          { title: "T <&>", description: "D", proposal_type: "Text", proposer: A, initial_deposit: coins },
          [
            {
              type: "core-sdk/MsgSubmitProposal",
              value: { content: { type: "core-sdk/TextProposal", value: { title: "T <&>", description: "D" } }, initial_deposit: coins, proposer: A },
            },
          ],
        ],
        [
          "post /gov/proposals/param_change",
          {
            title: "T",
            description: "D",
            changes: [
              { subspace: "staking", key: "MaxValidators", value: 105 },
              { subspace: "staking", key: "BondDenom", value: "uhub" },
            ],
            proposer: A,
            deposit: coins,
          },
          [
            {
              type: "core-sdk/MsgSubmitProposal",
              value: {
                content: {
                  type: "core-sdk/ParameterChangeProposal",
                  value: {
                    title: "T",
                    description: "D",
                    changes: [
                      { subspace: "staking", key: "MaxValidators", value: "105" },
                      { subspace: "staking", key: "BondDenom", value: '"uhub"' },
                    ],
                  },
                },
                initial_deposit: coins,
                proposer: A,
              },
            },
          ],
        ],
        [
          "post /gov/proposals/{proposal-id}/deposits",
          { depositor: A, amount: coins },
          [{ type: "core-sdk/MsgDeposit", value: { proposal_id: "2", depositor: A, amount: coins } }],
        ],
        [
          "post /gov/proposals/{proposal-id}/votes",
          { voter: A, option: "no_with_veto" },
          [{ type: "core-sdk/MsgVote", value: { proposal_id: "2", voter: A, option: 4 } }],
        ],
        ["post /slashing/validators/{validatorAddr}/unjail", {}, [{ type: "core-sdk/MsgUnjail", value: { address: V } }]],
        [
          "post /staking/delegators/{delegatorAddr}/delegations",
          { delegator_address: A, validator_address: V, amount: coins[0] },
          [{ type: "core-sdk/MsgDelegate", value: { delegator_address: A, validator_address: V, amount: coins[0] } }],
        ],
        [
          "post /staking/delegators/{delegatorAddr}/unbonding_delegations",
          { delegator_address: A, validator_address: V, amount: coins[0] },
          [{ type: "core-sdk/MsgUndelegate", value: { delegator_address: A, validator_address: V, amount: coins[0] } }],
        ],
        [
          "post /staking/delegators/{delegatorAddr}/redelegations",
          { delegator_address: A, validator_src_address: V, validator_dst_address: V2, amount: coins[0] },
          [{ type: "core-sdk/MsgBeginRedelegate", value: { delegator_address: A, validator_src_address: V, validator_dst_address: V2, amount: coins[0] } }],
        ],
        [
          "post /token/tokens",
          { symbol: "pig", name: "Pig", scale: 6, min_unit: "upig", initial_supply: "1000", max_supply: "2000", mintable: true, owner: A },
          [
            {
              type: "extmod/token/MsgIssueToken",
              value: { symbol: "pig", name: "Pig", scale: 6, min_unit: "upig", initial_supply: "1000", max_supply: "2000", mintable: true, owner: A },
            },
          ],
        ],
        [
          "put /token/tokens/{symbol}",
          { owner: A, max_supply: "3000", mintable: "true", name: "Cat" },
          [{ type: "extmod/token/MsgEditToken", value: { symbol: "cat", name: "Cat", max_supply: "3000", mintable: "true", owner: A } }],
        ],
        [
          "post /token/tokens/{symbol}/transfer",
          { src_owner: A, dst_owner: B },
          [{ type: "extmod/token/MsgTransferTokenOwner", value: { src_owner: A, dst_owner: B, symbol: "cat" } }],
        ],
        [
          "post /token/tokens/{symbol}/mint",
          { owner: A, to: B, amount: "7" },
          [{ type: "extmod/token/MsgMintToken", value: { symbol: "cat", amount: "7", to: B, owner: A } }],
        ],
        [
          "post /token/tokens/{symbol}/burn",
          { owner: A, amount: "7" },
          [{ type: "extmod/token/MsgBurnToken", value: { symbol: "cat", amount: "7", sender: A } }],
        ],
        [
          "post /nft/nfts/denoms/issue",
          { owner: A, id: "pets", name: "Pets", schema: "{}" },
          [{ type: "extmod/nft/MsgIssueDenom", value: { id: "pets", name: "Pets", schema: "{}", sender: A } }],
        ],
        [
          "post /nft/nfts/mint",
          { owner: A, denom_id: "devkitties", id: "kitty9", name: "N", uri: "u", data: "d" },
          [{ type: "extmod/nft/MsgMintNFT", value: { id: "kitty9", denom_id: "devkitties", name: "N", uri: "u", data: "d", sender: A, recipient: A } }],
        ],
        [
          "put /nft/nfts/{denom-id}/{token-id}",
          { owner: A, name: "N2" },
          [{ type: "extmod/nft/MsgEditNFT", value: { id: "kitty1", denom_id: "devkitties", name: "N2", sender: A } }],
        ],
        [
          "post /nft/nfts/{denom-id}/{token-id}/transfer",
          { owner: A, recipient: B },
          [{ type: "extmod/nft/MsgTransferNFT", value: { id: "kitty1", denom_id: "devkitties", sender: A, recipient: B } }],
        ],
        [
          "post /nft/nfts/{denom-id}/{token-id}/burn",
          { owner: A },
          [{ type: "extmod/nft/MsgBurnNFT", value: { id: "kitty1", denom_id: "devkitties", sender: A } }],
        ],
        [
          "post /htlc/htlcs",
          { sender: A, to: B, receiver_on_other_chain: "0xabc", amount: coins, hash_lock: lock, time_lock: "50", timestamp: "1600000000" },
          [
            {
              type: "extmod/htlc/MsgCreateHTLC",
              value: { sender: A, to: B, receiver_on_other_chain: "0xabc", amount: coins, hash_lock: lock, timestamp: "1600000000", time_lock: "50" },
            },
          ],
        ],
        [
          "post /htlc/htlcs/{hash-lock}/claim",
          { sender: A, secret: "ab".repeat(32) },
          [{ type: "extmod/htlc/MsgClaimHTLC", value: { sender: A, hash_lock: lock, secret: "ab".repeat(32) } }],
        ],
        ["post /htlc/htlcs/{hash-lock}/refund", { sender: A }, [{ type: "extmod/htlc/MsgRefundHTLC", value: { sender: A, hash_lock: lock } }]],
        [
          "post /coinswap/liquidities/{denom}/deposit",
          { max_token: "100", exact_standard_amt: "20", min_liquidity: "1", deadline: "10m", sender: A },
          [
            {
              type: "extmod/coinswap/MsgAddLiquidity",
              value: {
                max_token: { denom: "ucat", amount: "100" },
                exact_standard_amt: "20",
                min_liquidity: "1",
                deadline: "(10 minutes from now)",
                sender: A,
              },
            },
          ],
        ],
        [
          "post /coinswap/liquidities/{denom}/withdraw",
          { withdraw_liquidity: "10", min_token: "1", min_standard_amt: "1", deadline: "1h", sender: A },
          [
            {
              type: "extmod/coinswap/MsgRemoveLiquidity",
              value: {
                withdraw_liquidity: { denom: "swap/ucat", amount: "10" },
                min_token: "1",
                min_standard_amt: "1",
                deadline: "(an hour from now)",
                sender: A,
              },
            },
          ],
        ],
        [
          "post /coinswap/liquidities/buy",
          { input: { address: A, coin: coins[0] }, output: { address: A, coin: { denom: "ucat", amount: "1" } }, deadline: "10m" },
          [
            {
              type: "extmod/coinswap/MsgSwapOrder",
              value: {
                input: { address: A, coin: coins[0] },
                output: { address: A, coin: { denom: "ucat", amount: "1" } },
                deadline: "(10 minutes from now)",
                is_buy_order: true,
              },
            },
          ],
        ],
        [
          "post /coinswap/liquidities/sell",
          { input: { address: A, coin: coins[0] }, output: { address: A, coin: { denom: "ucat", amount: "1" } }, deadline: "10m" },
          [
            {
              type: "extmod/coinswap/MsgSwapOrder",
              value: { input: { address: A, coin: coins[0] }, output: { address: A, coin: { denom: "ucat", amount: "1" } }, deadline: "(10 minutes from now)" },
            },
          ],
        ],
        [
          "post /record/records",
          { contents: [{ digest: "d1", digest_algo: "sha256" }], creator: A },
          [{ type: "extmod/record/MsgCreateRecord", value: { contents: [{ digest: "d1", digest_algo: "sha256" }], creator: A } }],
        ],
        [
          "post /random/randoms",
          { consumer: A, block_interval: "10", oracle: true, service_fee_cap: coins },
          [{ type: "extmod/random/MsgRequestRandom", value: { block_interval: "10", consumer: A, oracle: true, service_fee_cap: coins } }],
        ],
        [
          "post /oracle/feeds",
          {
            feed_name: "f1",
            latest_history: "5",
            description: "d",
            creator: A,
            service_name: "price-feed",
            providers: [B],
            input: "{}",
            timeout: "10",
            service_fee_cap: "100uhub",
            repeated_frequency: "20",
            aggregate_func: "avg",
            value_json_path: "rate",
            response_threshold: 1,
          },
          [
            {
              type: "extmod/oracle/MsgCreateFeed",
              value: {
                feed_name: "f1",
                latest_history: "5",
                description: "d",
                creator: A,
                service_name: "price-feed",
                providers: [B],
                input: "{}",
                timeout: "10",
                service_fee_cap: [{ denom: "uhub", amount: "100" }],
                repeated_frequency: "20",
                aggregate_func: "avg",
                value_json_path: "rate",
                response_threshold: 1,
              },
            },
          ],
        ],
        [
          "put /oracle/feeds/{feed-name}",
          { description: "d2", creator: A, service_fee_cap: "" },
          [{ type: "extmod/oracle/MsgEditFeed", value: { feed_name: "hub-usdt", description: "d2", service_fee_cap: [], creator: A } }],
        ],
        ["post /oracle/feeds/{feed-name}/start", { creator: A }, [{ type: "extmod/oracle/MsgStartFeed", value: { feed_name: "hub-usdt", creator: A } }]],
        ["post /oracle/feeds/{feed-name}/pause", { creator: A }, [{ type: "extmod/oracle/MsgPauseFeed", value: { feed_name: "hub-usdt", creator: A } }]],
        [
          "post /service/definitions",
          { name: "s1", description: "d", tags: ["t"], author: A, author_description: "a", schemas: "{}" },
          [
            {
              type: "extmod/service/MsgDefineService",
              value: { name: "s1", description: "d", tags: ["t"], author: A, author_description: "a", schemas: "{}" },
            },
          ],
        ],
        [
          "post /service/bindings",
          { service_name: "price-feed", deposit: "5000uhub", pricing: "{}", qos: "10", options: "{}", owner: A },
          [
            {
              type: "extmod/service/MsgBindService",
              value: {
                service_name: "price-feed",
                provider: A,
                deposit: [{ denom: "uhub", amount: "5000" }],
                pricing: "{}",
                qos: "10",
                options: "{}",
                owner: A,
              },
            },
          ],
        ],
        [
          "put /service/bindings/{service-name}/{provider}",
          { pricing: "{}", qos: "5" },
          [
            {
              type: "extmod/service/MsgUpdateServiceBinding",
              value: { service_name: "price-feed", provider: examples.provider, deposit: [], pricing: "{}", qos: "5", owner: examples.provider },
            },
          ],
        ],
        [
          "post /service/owners/{owner}/withdraw-address",
          { withdraw_address: B },
          [{ type: "extmod/service/MsgSetWithdrawAddress", value: { owner: A, withdraw_address: B } }],
        ],
        [
          "post /service/bindings/{service-name}/{provider}/disable",
          {},
          [{ type: "extmod/service/MsgDisableServiceBinding", value: { service_name: "price-feed", provider: examples.provider, owner: examples.provider } }],
        ],
        [
          "post /service/bindings/{service-name}/{provider}/enable",
          { deposit: "1uhub", owner: A },
          [
            {
              type: "extmod/service/MsgEnableServiceBinding",
              value: { service_name: "price-feed", provider: examples.provider, deposit: [{ denom: "uhub", amount: "1" }], owner: A },
            },
          ],
        ],
        [
          "post /service/bindings/{service-name}/{provider}/refund-deposit",
          {},
          [{ type: "extmod/service/MsgRefundServiceDeposit", value: { service_name: "price-feed", provider: examples.provider, owner: examples.provider } }],
        ],
        [
          "post /service/contexts",
          {
            service_name: "price-feed",
            providers: [B],
            consumer: A,
            input: "{}",
            service_fee_cap: "50uhub",
            timeout: "10",
            repeated: true,
            repeated_frequency: "20",
            repeated_total: "-1",
          },
          [
            {
              type: "extmod/service/MsgCallService",
              value: {
                service_name: "price-feed",
                providers: [B],
                consumer: A,
                input: "{}",
                service_fee_cap: [{ denom: "uhub", amount: "50" }],
                timeout: "10",
                repeated: true,
                repeated_frequency: "20",
                repeated_total: "-1",
              },
            },
          ],
        ],
        [
          "post /service/responses",
          { request_id: examples["request-id"], provider: B, result: "{}", output: "{}" },
          [{ type: "extmod/service/MsgRespondService", value: { request_id: examples["request-id"], provider: B, result: "{}", output: "{}" } }],
        ],
        [
          "post /service/contexts/{request-context-id}/pause",
          { consumer: A },
          [{ type: "extmod/service/MsgPauseRequestContext", value: { request_context_id: ctx, consumer: A } }],
        ],
        [
          "post /service/contexts/{request-context-id}/start",
          { consumer: A },
          [{ type: "extmod/service/MsgStartRequestContext", value: { request_context_id: ctx, consumer: A } }],
        ],
        [
          "post /service/contexts/{request-context-id}/kill",
          { consumer: A },
          [{ type: "extmod/service/MsgKillRequestContext", value: { request_context_id: ctx, consumer: A } }],
        ],
        [
          "put /service/contexts/{request-context-id}",
          { consumer: A, providers: [B], service_fee_cap: "", timeout: "5" },
          [
            {
              type: "extmod/service/MsgUpdateRequestContext",
              value: { request_context_id: ctx, providers: [B], consumer: A, service_fee_cap: [], timeout: "5" },
            },
          ],
        ],
        [
          "post /service/fees/{provider}/withdraw",
          { owner: A },
          [{ type: "extmod/service/MsgWithdrawEarnedFees", value: { owner: A, provider: examples.provider } }],
        ],
      ];
    };

    it("every generate entry of the table has a case here, and each answers the unsigned StdTx of its Msgs", async () => {
      const generates = tables.legacy.routes.filter((r) => r.handlers[0]!.handler.kind === "generate");
      const all = cases();
      expect(all.map((c) => c[0]).sort()).to.deep.equal(generates.map((r) => `${r.verb} ${r.path}`).sort());
      const problems: string[] = [];
      for (const [key, body, msgs] of all) {
        const route = generates.find((r) => `${r.verb} ${r.path}` === key)!;
        // the sender is account 0 (the validator's own account); the transfer goes to another delegator
        const url = urlOf(route, { address: state.staking.delegations[1].delegator_address, delegatorAddr: examples.address! });
        const sent = Math.floor(Date.now() / 1000);
        const r = await post(url, { base_req: { from: examples.address, chain_id: "devnet-1" }, ...body }, route.verb.toUpperCase());
        const answered = Math.ceil(Date.now() / 1000);
        if (r.status !== 200) {
          problems.push(`${key} → ${r.status}: ${r.text}`);
          continue;
        }
        const shown = r.body.value.msg as Json[];
        for (const msg of shown) {
          // a deadline is "now + duration", the server's now between sending and answering; then compared by its label
          if (typeof msg.value.deadline === "string") {
            const deadline = Number(msg.value.deadline);
            const fromNow = (seconds: number) => deadline >= sent + seconds && deadline <= answered + seconds;
            msg.value.deadline = fromNow(3600) ? "(an hour from now)" : fromNow(600) ? "(10 minutes from now)" : msg.value.deadline;
          }
        }
        try {
          expect(shown).to.deep.equal(msgs);
          expect(r.body.value.signatures).to.equal(null);
          expect(r.headers.get("deprecation")).to.equal(route.deprecationHeaders ? "true" : null);
        } catch (err) {
          problems.push(`${key}: ${(err as Error).message}\n  answered ${JSON.stringify(shown)}`);
        }
      }
      console.log(`      ${all.length} generate-only routes built their Msgs`);
      expect(problems, problems.join("\n")).to.deep.equal([]);
    });

    it("refuses what the real handlers refuse: another signer (401), another proposal type, a vote option or a deadline that does not parse (400)", async () => {
      const { address: A, validatorAddr: V } = examples;
      const B = state.staking.delegations[1].delegator_address;
      const baseReq = { from: A, chain_id: "devnet-1" };
      const cases: Array<[string, Json, number, string | RegExp, string?]> = [
        [
          `/staking/delegators/${B}/delegations`,
          { delegator_address: B, validator_address: V, amount: { denom: "uhub", amount: "1" } },
          401,
          "must use own delegator address",
        ],
        [`/slashing/validators/${state.staking.redelegations[0].validator_dst_address}/unjail`, {}, 401, "must use own validator address"],
        [
          "/gov/proposals",
          { title: "t", description: "d", proposal_type: "ParamChange", proposer: A, initial_deposit: [] },
          400,
          /^proposal_type must be Text/,
        ],
        [`/gov/proposals/2/votes`, { voter: A, option: "maybe" }, 400, "'maybe' is not a valid vote option"],
        [
          `/coinswap/liquidities/ucat/deposit`,
          { max_token: "1", exact_standard_amt: "1", min_liquidity: "1", deadline: "soon", sender: A },
          400,
          'time: invalid duration "soon" (deadline)',
        ],
        [
          `/bank/accounts/${B}/transfers`,
          { amount: [{ denom: "uhub", amount: 5 }] },
          400,
          "failed to decode JSON payload: amount[0].amount: expected a string",
        ],
        [
          `/token/tokens`,
          { symbol: "pig", initial_supply: 1000, owner: A },
          400,
          "failed to decode JSON payload: initial_supply: Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support",
        ],
        [`/gov/proposals/abc/deposits`, { depositor: A, amount: [] }, 400, "'abc' is not a valid uint64"],
        ["/service/contexts/nothex/kill", { consumer: A }, 400, 'invalid hex "nothex" for request-context-id'],
      ];
      for (const [route, body, status, message] of cases) {
        const r = await post(route, { base_req: baseReq, ...body });
        expect(r.status, `${route}: ${r.text}`).to.equal(status);
        if (typeof message === "string") expect(r.body.error, route).to.equal(message);
        else expect(r.body.error, route).to.match(message);
      }
      // simulating a Msg runs it on the node: a delegation answers with its gas estimate
      const simulated = await post(`/staking/delegators/${A}/delegations`, {
        base_req: { from: A, simulate: true },
        delegator_address: A,
        validator_address: V,
        amount: { denom: "uhub", amount: "1" },
      });
      expect(simulated.status, simulated.text).to.equal(200);
      expect(Number(simulated.body.gas_estimate)).to.be.greaterThan(0);
    });
  });

  describe('errors: the real statuses, {"error": ...}, 404 for a missing object', () => {
    const cases: Array<[string, number, string | RegExp]> = [
      ["/gov/proposals/abc", 400, "'abc' is not a valid uint64"],
      ["/gov/proposals/99", 404, /proposal 99 doesn't exist/],
      ["/gov/proposals?status=deposit_period", 400, "'deposit_period' is not a valid proposal status"],
      ["/blocks/abc", 400, "couldn't parse block height. Assumed format is '/block/{height}'."],
      ["/blocks/99999", 404, "requested block height is bigger then the chain length"],
      ["/validatorsets/abc", 400, "failed to parse block height"],
      ["/validatorsets/99999", 404, "requested block height is bigger then the chain length"],
      ["/validatorsets/latest?page=4", 400, /^pagination.offset 300 is past the end of the validator set \(page should be within \[1, 1\] range, given 4\)$/],
      ["/bank/balances/hub1invalid", 400, /hub1invalid/],
      ["/staking/validators?page=0", 400, "page must greater than 0"],
      ["/staking/validators?limit=x", 400, 'strconv.Atoi: parsing "x": invalid syntax'],
      ["/staking/pool?height=x", 400, 'strconv.ParseInt: parsing "x": invalid syntax'],
      ["/staking/pool?height=-1", 400, "height must be equal or greater than zero"],
      ["/htlc/htlcs/xyz", 400, 'invalid hex "xyz" for hash-lock'],
      ["/random/queue", 400, "the query parameter gen-height is required"],
      ["/txs/" + "AB".repeat(32), 404, `tx (${"AB".repeat(32)}) not found`],
    ];
    for (const [route, status, message] of cases) {
      it(`GET ${route} → ${status}`, async () => {
        const r: HttpAnswer = await get(route);
        expect(r.status, r.text).to.equal(status);
        expect(Object.keys(r.body)).to.deep.equal(["error"]);
        if (typeof message === "string") expect(r.body.error).to.equal(message);
        else expect(r.body.error).to.match(message);
      });
    }

    it("the account of an address the chain does not know is an empty account, as the real server answers; a malformed one is a 400", async () => {
      const fresh = await get(`/auth/accounts/${addressOf(9)}`);
      expect(fresh.body).to.deep.equal({ height: "0", result: { type: "core-sdk/Account", value: {} } });
      const malformed = await get(`/auth/accounts/${examples.address!.slice(0, -6)}`);
      expect(malformed.status).to.equal(400);
      expect(malformed.body.error).to.match(/^invalid address/);
    });

    it("a delegator without delegations lists none; a missing delegation is a 404", async () => {
      expect(await result(`/staking/delegators/${addressOf(9)}/delegations`)).to.deep.equal([]);
      const missing = await get(`/staking/delegators/${addressOf(9)}/delegations/${examples.validatorAddr}`);
      expect(missing.status).to.equal(404);
    });

    it("a legacy path with another verb is the gateway's 501, without deprecation headers", async () => {
      const r = await http(`${node.restUrl}/staking/pool`, { method: "POST" });
      expect(r.status).to.equal(501);
      expect(r.body).to.deep.equal({ code: 12, message: "Not Implemented", details: [] });
      expect(r.headers.get("deprecation")).to.equal(null);
    });
  });
});

/** A bech32 account address with no account on the chain. */
function addressOf(seed: number): string {
  return bech32.encode("hub", bech32.toWords(sha256(Uint8Array.of(seed)).subarray(0, 20)));
}
