import { expect } from "chai";
import Long from "long";
import type { ProtoMessage } from "../../../../src/codec/json/renderProto3.js";
import { genesisCodec, TEST_CHAIN } from "../../../helpers/moduleGenesis.js";
import { QueryError } from "../../../../src/node/abci/queryError.js";
import type { KVReader } from "../../../../src/node/store/kv.js";
import { compareBytes, concatBytes } from "../../../../src/node/store/keyEncoding.js";
import { NODE_MODULES } from "../../../../src/node/modules/index.js";
import { paramSubspacesOf, type QueryContext } from "../../../../src/node/modules/nodeModule.js";
import { doneKey, PLAN_KEY, upgradedConsStateKey } from "../../../../src/node/modules/upgrade/keys.js";
import { upgradeModule } from "../../../../src/node/modules/upgrade/module.js";

const codec = genesisCodec;
const chain = TEST_CHAIN;

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
      if (k.length >= prefix.length && compareBytes(k.subarray(0, prefix.length), prefix) === 0 && compareBytes(k, from) >= 0)
        yield [k.subarray(prefix.length), v];
    }
  }
}

describe("upgrade queries over a store with a scheduled plan and an applied one", () => {
  const plan = {
    name: "v2",
    time: { seconds: Long.fromNumber(0), nanos: 0 },
    height: Long.fromNumber(500),
    info: "binaries at ...",
    upgraded_client_state: null,
  };
  const consensusState = {
    type_url: "/ibc.lightclients.tendermint.v1.ConsensusState",
    value: codec
      .type("ibc.lightclients.tendermint.v1.ConsensusState")
      .encode({ timestamp: { seconds: 1, nanos: 0 }, root: { hash: new Uint8Array(32) } })
      .finish(),
  };
  const heightBytes = new Uint8Array(8);
  new DataView(heightBytes.buffer).setBigUint64(0, 321n);
  const store = new MapStore([
    [PLAN_KEY, codec.type("core.upgrade.v1beta1.Plan").encode(plan).finish()],
    [doneKey("v1"), heightBytes],
    [upgradedConsStateKey(499), codec.type("google.protobuf.Any").encode(consensusState).finish()],
  ]);
  const ctx: QueryContext = { chain, codec, height: 400, store, storeOf: () => store, paramSubspaces: paramSubspacesOf(NODE_MODULES) };
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
