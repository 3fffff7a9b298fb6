import { expect } from "chai";
import Long from "long";
import type { ProtoMessage } from "../../../src/codec/json/renderProto3.js";
import { devAppState, genesisCodec, TEST_CHAIN, validateModuleGenesis, type GenesisJson } from "../../helpers/moduleGenesis.js";
import { QueryError } from "../../../src/node/abci/queryError.js";
import type { KVReader } from "../../../src/node/store/kv.js";
import { compareBytes, concatBytes } from "../../../src/node/store/keyEncoding.js";
import { guardianModule } from "../../../src/node/modules/guardian/module.js";
import { ibcChannelModule } from "../../../src/node/modules/ibc/channelModule.js";
import { ibcClientModule } from "../../../src/node/modules/ibc/clientModule.js";
import { ibcConnectionModule } from "../../../src/node/modules/ibc/connectionModule.js";
import { parseHexHash } from "../../../src/node/modules/ibc/denomTrace.js";
import { revisionOfChainId } from "../../../src/node/modules/ibc/heights.js";
import { transferModule } from "../../../src/node/modules/ibc/transferModule.js";
import { mintModule } from "../../../src/node/modules/mint/module.js";
import type { NodeModule, QueryContext } from "../../../src/node/modules/nodeModule.js";
import { doneKey, PLAN_KEY, upgradedConsStateKey } from "../../../src/node/modules/upgrade/keys.js";
import { upgradeModule } from "../../../src/node/modules/upgrade/module.js";

const codec = genesisCodec;
const chain = TEST_CHAIN;
const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

const IBC_MODULES = [ibcClientModule, ibcConnectionModule, ibcChannelModule];

describe("params, upgrade, mint, guardian and IBC genesis", () => {
  it("writes a development genesis that validates, with the real app_state keys", () => {
    const state = appState();
    expect(state.params).to.equal(null);
    expect(state.upgrade).to.deep.equal({});
    expect(Object.keys(state.ibc)).to.deep.equal(["client_genesis", "connection_genesis", "channel_genesis"]);
    for (const module of [mintModule, guardianModule, ...IBC_MODULES, transferModule]) expect(() => validate(module, state[module.name]), module.name).not.to.throw();
  });

  const expectError = (module: NodeModule, edit: (state: Json) => void, message: string) => {
    const state = appState()[module.name];
    edit(state);
    expect(() => validate(module, state)).to.throw(message);
  };

  it("mint: inflation within [0, 0.2], a valid denom, a positive inflation base", () => {
    expectError(mintModule, (s) => (s.params.inflation = "0.21"), "params.inflation: mint inflation should be between 0 and 0.2");
    expectError(mintModule, (s) => (s.params.mint_denom = ""), 'params.mint_denom: invalid denom ""');
    expectError(mintModule, (s) => (s.minter.inflation_base = "0"), 'minter.inflation_base: the inflation base should be positive, got "0"');
  });

  it("guardian: bech32 addresses of the chain, no duplicates", () => {
    expectError(guardianModule, (s) => (s.supers[0].added_by = "cosmos1xyz"), "supers[0].added_by");
    expectError(guardianModule, (s) => s.supers.push({ ...s.supers[0] }), "supers[1].address: duplicate super");
  });

  it("ibc clients: valid ids of an allowed type, consensus states of known clients, a next sequence past the ids", () => {
    expectError(ibcClientModule, (s) => (s.client_genesis.clients[0].client_id = "07-tm"), "client_genesis.clients[0].client_id: identifier 07-tm has invalid length");
    expectError(ibcClientModule, (s) => (s.client_genesis.params.allowed_clients = ["06-solomachine"]), "client type 07-tendermint is not allowed");
    expectError(ibcClientModule, (s) => (s.client_genesis.clients_consensus[0].client_id = "07-tendermint-3"), "clients_consensus[0].client_id: 07-tendermint-3 is not a client");
    expectError(ibcClientModule, (s) => (s.client_genesis.clients_consensus[0].consensus_states[0].height = { revision_number: "0", revision_height: "0" }), "consensus state height cannot be zero");
    expectError(ibcClientModule, (s) => (s.client_genesis.next_client_sequence = "0"), "client_genesis.next_client_sequence: 0 must be greater than");
    expectError(ibcClientModule, (s) => (s.client_genesis.create_localhost = true), "the localhost client is not supported");
    expectError(ibcClientModule, (s) => (s.client_genesis.clients[0].client_state["@type"] = "/ibc.core.client.v1.Height"), "unsupported client state type");
  });

  it("ibc connections and channels: ids, versions, hops, packet sequences", () => {
    expectError(ibcConnectionModule, (s) => (s.connection_genesis.connections[0].versions = []), "connections[0].versions: empty connection versions");
    expectError(ibcConnectionModule, (s) => (s.connection_genesis.client_connection_paths[0].paths = ["connection-4"]), "paths[0]: connection-4 is not a connection");
    expectError(ibcChannelModule, (s) => (s.channel_genesis.channels[0].state = "STATE_UNINITIALIZED_UNSPECIFIED"), "channels[0].state");
    expectError(ibcChannelModule, (s) => (s.channel_genesis.channels[0].connection_hops = []), "connection_hops: a channel has exactly one connection hop, got 0");
    expectError(ibcChannelModule, (s) => (s.channel_genesis.commitments[0].sequence = "0"), "commitments[0].sequence: packet sequence cannot be 0");
    expectError(ibcChannelModule, (s) => (s.channel_genesis.receipts[0].data = ""), "receipts[0].data: data bytes cannot be empty");
  });

  it("transfer: a valid port, traces of port/channel pairs, no duplicates", () => {
    expectError(transferModule, (s) => (s.port_id = ""), "port_id: identifier cannot be blank");
    expectError(transferModule, (s) => s.denom_traces.push({ path: "transfer", base_denom: "uatom" }), "denom_traces[1].path: trace info must come in pairs");
    expectError(transferModule, (s) => s.denom_traces.push({ ...s.denom_traces[0] }), "denom_traces[1]: duplicated denomination trace with hash");
  });
});

describe("IBC helpers", () => {
  it("reads the revision of a chain id as the real ParseChainID", () => {
    expect(revisionOfChainId("devnet-1")).to.equal(1n);
    expect(revisionOfChainId("peer-12")).to.equal(12n);
    expect(revisionOfChainId("devnet")).to.equal(0n);
    expect(revisionOfChainId("devnet-0")).to.equal(0n);
    expect(revisionOfChainId("a--1")).to.equal(0n);
  });

  it("parses denom trace hashes with Go's hex errors", () => {
    expect(parseHexHash("ab".repeat(32))).to.have.length(32);
    expect(() => parseHexHash("0g")).to.throw("encoding/hex: invalid byte: U+0067 'g'");
    expect(() => parseHexHash("abc")).to.throw("encoding/hex: odd length hex string");
    expect(() => parseHexHash("abcd")).to.throw("expected size to be 32 bytes, got 2 bytes");
  });
});

/** A KVReader over a map, for query handlers. */
class MapStore implements KVReader {
  constructor(private readonly entries: Array<[Uint8Array, Uint8Array]> = []) {}
  async get(key: Uint8Array) {
    return this.entries.find(([k]) => compareBytes(k, key) === 0)?.[1];
  }
  async *iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    const from = start ? concatBytes(prefix, start) : prefix;
    const sorted = [...this.entries].sort(([a], [b]) => compareBytes(a, b));
    for (const [k, v] of sorted) {
      if (k.length >= prefix.length && compareBytes(k.subarray(0, prefix.length), prefix) === 0 && compareBytes(k, from) >= 0) yield [k.subarray(prefix.length), v];
    }
  }
}

describe("upgrade queries over a store with a scheduled plan and an applied one", () => {
  const plan = { name: "v2", time: { seconds: Long.fromNumber(0), nanos: 0 }, height: Long.fromNumber(500), info: "binaries at ...", upgraded_client_state: null };
  const consensusState = {
    type_url: "/ibc.lightclients.tendermint.v1.ConsensusState",
    value: codec.type("ibc.lightclients.tendermint.v1.ConsensusState").encode({ timestamp: { seconds: 1, nanos: 0 }, root: { hash: new Uint8Array(32) } }).finish(),
  };
  const heightBytes = new Uint8Array(8);
  new DataView(heightBytes.buffer).setBigUint64(0, 321n);
  const store = new MapStore([
    [PLAN_KEY, codec.type("core.upgrade.v1beta1.Plan").encode(plan).finish()],
    [doneKey("v1"), heightBytes],
    [upgradedConsStateKey(499), codec.type("google.protobuf.Any").encode(consensusState).finish()],
  ]);
  const ctx: QueryContext = { chain, codec, height: 400, store, storeOf: () => store };
  const query = (method: string, request: ProtoMessage) => upgradeModule.queries![method]!(request, ctx);

  it("answers the plan, the applied height and the upgraded consensus state", async () => {
    const current = (await query("CurrentPlan", {})) as { plan: ProtoMessage };
    expect(current.plan.name).to.equal("v2");
    expect(String(current.plan.height)).to.equal("500");
    expect(String((await query("AppliedPlan", { name: "v1" })).height)).to.equal("321");
    expect(String((await query("AppliedPlan", { name: "v2" })).height)).to.equal("0");
    const upgraded = (await query("UpgradedConsensusState", { last_height: Long.fromNumber(499) })) as { upgraded_consensus_state: ProtoMessage };
    expect(upgraded.upgraded_consensus_state.type_url).to.equal(consensusState.type_url);
    const missing = await query("UpgradedConsensusState", { last_height: Long.fromNumber(500) }).catch((err: unknown) => err);
    expect(missing).to.be.instanceOf(QueryError);
    expect((missing as QueryError).grpcCode).to.equal("NotFound");
  });
});
