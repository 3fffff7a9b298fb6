import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { bech32 } from "bech32";
import { LcdClient, setupStakingExtension } from "@cosmjs/launchpad";
import type { EncodeObject } from "@cosmjs/proto-signing";
import { PubKey } from "cosmjs-types/cosmos/crypto/ed25519/keys";
import { MsgBeginRedelegate, MsgCreateValidator, MsgDelegate, MsgUndelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import { http } from "../helpers/http.js";
import { aminoJsonTime } from "../helpers/timeText.js";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

type Json = Record<string, any>;

/**
 * The legacy staking routes that @cosmjs/launchpad's LcdClient (0.27, written
 * for the earlier major version) calls with no parameters or that answered
 * 501 before: GET /staking/redelegations with any mix of its optional filters,
 * GET /staking/delegators/{addr}/txs and GET /staking/historical_info/{height}.
 * Account 4 creates validator C (bonded at the end of its block), delegates
 * to it, redelegates C → A and undelegates from C (transactions signed with
 * cosmjs); the genesis holds one redelegation of account 1 from A to B.
 */
describe("interop: @cosmjs/launchpad LcdClient on the legacy staking routes", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  let lcd: LcdClient & ReturnType<typeof setupStakingExtension>;
  let genesisRedelegation: Json;
  let valA: string;
  let valB: string;
  let valC: string;
  let delegator: TestSigner;
  const txs: Record<"bond" | "redelegate" | "unbond", { hash: string; height: string }> = {} as never;
  const get = (route: string) => http(`${node.restUrl}${route}`);

  before(async () => {
    initDevHome(home, { mnemonic: TEST_MNEMONIC });
    const staking = (JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8")) as { app_state: { staking: Json } }).app_state.staking;
    genesisRedelegation = staking.redelegations[0];
    [valA, valB] = [genesisRedelegation.validator_src_address as string, genesisRedelegation.validator_dst_address as string];
    node = await startNode(home);
    lcd = LcdClient.withExtensions({ apiUrl: node.restUrl }, setupStakingExtension);

    delegator = await testSigner(TEST_MNEMONIC, 4);
    const account = (await get(`/core/auth/v1beta1/accounts/${delegator.address}`)).body.account;
    const d = delegator.address;
    valC = bech32.encode("hubvaloper", bech32.decode(d).words);
    const coin = (amount: string) => ({ denom: "uhub", amount });
    const key = ed25519.getPublicKey(sha256(new TextEncoder().encode("validator-c")));
    const steps: Array<[keyof typeof txs | "create", EncodeObject]> = [
      // a bonded source validator: a redelegation from an unbonded one completes at once, leaving no entry
      [
        "create",
        {
          typeUrl: "/core.staking.v1beta1.MsgCreateValidator",
          value: MsgCreateValidator.fromPartial({
            description: { moniker: "validator-c" },
            commission: { rate: "100000000000000000", maxRate: "200000000000000000", maxChangeRate: "10000000000000000" },
            minSelfDelegation: "1",
            delegatorAddress: d,
            validatorAddress: valC,
            pubkey: { typeUrl: "/core.crypto.ed25519.PubKey", value: PubKey.encode({ key }).finish() },
            value: coin("5000000"),
          }),
        },
      ],
      [
        "bond",
        {
          typeUrl: "/core.staking.v1beta1.MsgDelegate",
          value: MsgDelegate.fromPartial({ delegatorAddress: d, validatorAddress: valC, amount: coin("3000000") }),
        },
      ],
      [
        "redelegate",
        {
          typeUrl: "/core.staking.v1beta1.MsgBeginRedelegate",
          value: MsgBeginRedelegate.fromPartial({ delegatorAddress: d, validatorSrcAddress: valC, validatorDstAddress: valA, amount: coin("2000000") }),
        },
      ],
      [
        "unbond",
        {
          typeUrl: "/core.staking.v1beta1.MsgUndelegate",
          value: MsgUndelegate.fromPartial({ delegatorAddress: d, validatorAddress: valC, amount: coin("1000000") }),
        },
      ],
    ];
    for (const [sequence, [kind, msg]] of steps.entries()) {
      const bytes = await directTx(delegator, { messages: [msg], sequence, accountNumber: Number(account.account_number) });
      const r = await http(`${node.restUrl}/core/tx/v1beta1/txs`, {
        method: "POST",
        body: JSON.stringify({ tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
      });
      expect(r.body.tx_response?.code, r.text).to.equal(0);
      if (kind !== "create") txs[kind] = { hash: r.body.tx_response.txhash, height: r.body.tx_response.height };
    }
  });
  after(() => node?.proc.stop());

  /** The (delegator, from, to) of each redelegation a legacy answer lists. */
  const triples = (result: Json[]) =>
    result.map((r) => [r.redelegation.delegator_address, r.redelegation.validator_src_address, r.redelegation.validator_dst_address].join(" "));

  describe("GET /staking/redelegations: every filter optional, as the legacy querier read them", () => {
    const genesisTriple = () => [genesisRedelegation.delegator_address, valA, valB].join(" ");
    const ownTriple = () => [delegator.address, valC, valA].join(" ");

    it("LcdClient.staking.redelegations() (no parameter) lists every redelegation", async () => {
      const answer = await lcd.staking.redelegations();
      expect(answer.height).to.match(/^\d+$/);
      expect(triples(answer.result as unknown as Json[])).to.have.members([genesisTriple(), ownTriple()]);
      const own = (answer.result as unknown as Json[]).find((r) => r.redelegation.delegator_address === delegator.address)!;
      expect(own.entries).to.have.length(1);
      expect(own.entries[0].redelegation_entry.initial_balance).to.equal("2000000");
      expect(own.entries[0].redelegation_entry).to.have.all.keys("completion_time", "initial_balance", "shares_dst");
    });

    it("filters by whichever of delegator, validator_from and validator_to are given", async () => {
      const cases: Array<[string, string[]]> = [
        [`delegator=${delegator.address}`, [ownTriple()]],
        [`delegator=${genesisRedelegation.delegator_address}`, [genesisTriple()]],
        [`validator_from=${valA}`, [genesisTriple()]],
        [`validator_from=${valC}`, [ownTriple()]],
        [`validator_from=${valB}`, []],
        [`validator_to=${valA}`, [ownTriple()]],
        [`validator_to=${valB}`, [genesisTriple()]],
        [`validator_from=${valA}&validator_to=${valA}`, []],
        [`validator_from=${valC}&validator_to=${valA}`, [ownTriple()]],
        // a delegator and one validator: the delegator's redelegations filtered (the gRPC query would list them all)
        [`delegator=${delegator.address}&validator_from=${valA}`, []],
        [`delegator=${delegator.address}&validator_to=${valA}`, [ownTriple()]],
        [`delegator=${delegator.address}&validator_from=${valC}&validator_to=${valA}`, [ownTriple()]],
      ];
      for (const [query, expected] of cases) {
        const r = await get(`/staking/redelegations?${query}`);
        expect(r.status, `${query}: ${r.text}`).to.equal(200);
        expect(triples(r.body.result), query).to.have.members(expected);
        expect(r.body.result, query).to.have.length(expected.length);
      }
    });

    it("all three given and no such redelegation: 404; a malformed address: 400 naming the field", async () => {
      const missing = await get(`/staking/redelegations?delegator=${delegator.address}&validator_from=${valA}&validator_to=${valB}`);
      expect(missing.status).to.equal(404);
      expect(missing.body.error).to.match(/^no redelegation found/);
      const bad = await get(`/staking/redelegations?validator_to=${delegator.address}`);
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.include("dst_validator_addr").and.include("invalid Bech32 prefix; expected hubvaloper, got hub");
    });
  });

  describe("GET /staking/delegators/{delegatorAddr}/txs: the delegator's staking transactions", () => {
    const hashes = (result: Json) => ((result.txs ?? []) as Json[]).map((tx) => tx.txhash);

    it("LcdClient.staking.delegatorTransactions: one search result per kind (delegate, begin_unbonding, begin_redelegate)", async () => {
      const results = (await lcd.staking.delegatorTransactions(delegator.address)) as unknown as Json[];
      expect(results.map(hashes)).to.deep.equal([[txs.bond.hash], [txs.unbond.hash], [txs.redelegate.hash]]);
      for (const result of results) expect(result).to.include({ total_count: "1", count: "1", page_number: "1", page_total: "1", limit: "100" });
      // each tx as the legacy routes show transactions: the StdTx with its amino Msgs
      const bond = results[0]!.txs[0];
      expect(bond.height).to.equal(txs.bond.height);
      expect(bond.tx.type).to.equal("core-sdk/StdTx");
      expect(bond.tx.value.msg).to.deep.equal([
        {
          type: "core-sdk/MsgDelegate",
          value: { delegator_address: delegator.address, validator_address: valC, amount: { denom: "uhub", amount: "3000000" } },
        },
      ]);
      expect(bond.logs[0].events.find((e: Json) => e.type === "delegate")).to.not.equal(undefined);
    });

    it("?type= picks one kind: the first of bond, unbond, redelegate its words name; another type answers 204", async () => {
      const picked: Array<[string, string[]]> = [
        ["bond", [txs.bond.hash]],
        ["unbond", [txs.unbond.hash]],
        ["redelegate", [txs.redelegate.hash]],
        ["redelegate%20unbond", [txs.unbond.hash]],
      ];
      for (const [type, expected] of picked) {
        const r = await get(`/staking/delegators/${delegator.address}/txs?type=${type}`);
        expect(r.status, r.text).to.equal(200);
        expect(r.body.map(hashes), type).to.deep.equal([expected]);
      }
      const other = await get(`/staking/delegators/${delegator.address}/txs?type=send`);
      expect([other.status, other.text]).to.deep.equal([204, ""]);
      const nothing = await get(`/staking/delegators/${genesisRedelegation.delegator_address}/txs`);
      expect(nothing.body.map(hashes)).to.deep.equal([[], [], []]);
    });

    it("a delegator address that is not one (wrong prefix, bad checksum, quotes) is a 400 naming it", async () => {
      for (const address of [valA, `${delegator.address.slice(0, -1)}x`, "hub1'%20OR%20'1'='1"]) {
        const r = await get(`/staking/delegators/${address}/txs`);
        expect(r.status, r.text).to.equal(400);
        expect(r.body.error).to.match(/^invalid delegatorAddr /);
      }
    });
  });

  describe("GET /staking/historical_info/{height}", () => {
    it("LcdClient.staking.historicalInfo: the header and validator set kept for the height, in amino JSON", async () => {
      const height = txs.bond.height;
      const answer = (await lcd.staking.historicalInfo(height)) as unknown as Json;
      expect(answer.height).to.match(/^\d+$/);
      const gateway = (await get(`/core/staking/v1beta1/historical_info/${height}`)).body.hist;
      // the header as the legacy family writes the consensus engine's (as /blocks/{height}: hashes in hex)
      const hex = (base64: string) => Buffer.from(base64, "base64").toString("hex").toUpperCase();
      expect(answer.result.header).to.include({
        chain_id: "devnet-1",
        height,
        time: aminoJsonTime(Date.parse(gateway.header.time)),
        app_hash: hex(gateway.header.app_hash),
      });
      expect(answer.result.header.version).to.deep.equal({ block: gateway.header.version.block }); // app 0: omitted, as amino omits empty fields
      expect(answer.result.valset.map((v: Json) => v.operator_address)).to.deep.equal(gateway.valset.map((v: Json) => v.operator_address));
      const [validator] = answer.result.valset;
      expect(validator.consensus_pubkey.type).to.equal("consensus/PubKeyEd25519");
      expect(validator.status).to.equal(3);
      expect(validator).to.not.have.any.keys("jailed", "unbonding_height");
    });

    it("a height that is not a non-negative integer is a 400; one not kept is a 404", async () => {
      for (const height of ["-1", "abc"]) {
        const r = await get(`/staking/historical_info/${height}`);
        expect([r.status, r.body.error]).to.deep.equal([400, `Must provide non-negative integer for height: ${height}`]);
      }
      const future = await get("/staking/historical_info/100000");
      expect(future.status).to.equal(404);
      expect(future.body.error).to.include("historical info for height 100000 not found");
    });
  });
});
