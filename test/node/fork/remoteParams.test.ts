import { expect } from "chai";
import type { AbciQueryResponse } from "../../../src/client/chainClient.js";
import type { EmbeddedNode } from "../../../src/node/embeddedNode.js";
import { RemoteParams } from "../../../src/node/fork/remoteParams.js";
import { RemoteState } from "../../../src/node/fork/remoteState.js";
import { InProcessClient } from "../../../src/node/inProcessClient.js";
import { NODE_MODULES } from "../../../src/node/modules/index.js";
import { isHiddenParamsKey, MODULE_PARAMS_KEY, namedParamsKey } from "../../../src/node/modules/shared/paramsKey.js";
import { ModuleReader } from "../../../src/node/store/moduleStore.js";
import { openDevNode } from "../../helpers/devNode.js";

/**
 * A fork reads every module's parameters from the remote's x/params store (`/store/params/…`,
 * amino JSON by subspace key, the layout of a real v0.41 node), never from this node's hidden
 * params keys; the translation reads back as the source's own values.
 */
describe("fork: module parameters read from the remote's params store", function () {
  this.timeout(60_000);
  let source: EmbeddedNode;

  before(async () => {
    source = (await openDevNode({ accounts: 4 })).node;
    await source.produceBlock();
  });
  after(() => source?.close());

  it("every subspace: the fork's params read back as the source's, and no hidden key was asked of the source", async () => {
    const asked: Array<{ path: string; data: Uint8Array }> = [];
    const client = new InProcessClient(source);
    const recording = {
      abciQuery: (path: string, data: Uint8Array, height: number): Promise<AbciQueryResponse> => {
        asked.push({ path, data });
        return client.abciQuery(path, data, height);
      },
    };
    const remote = new RemoteState(recording, "in-process", source.height);
    const ctx = { chain: source.chain, codec: source.codec };
    const params = new RemoteParams(remote, NODE_MODULES, ctx);
    const withParams = NODE_MODULES.filter((m) => m.params);
    expect(withParams.length).to.be.greaterThan(8);
    for (const module of withParams) {
      // the keys the module keeps: its Params proto, or gov's three named structs
      const keys = module.name === "gov" ? ["depositparams", "votingparams", "tallyparams"].map(namedParamsKey) : [MODULE_PARAMS_KEY];
      const forked = new Map<string, Uint8Array>();
      for (const key of keys) {
        expect(params.answers(module.name, key), module.name).to.equal(true);
        const value = await params.get(module.name, key);
        expect(value, `${module.name} ${Buffer.from(key).toString()}`).to.not.equal(undefined);
        forked.set(Buffer.from(key).toString("hex"), value!);
      }
      const reader = { get: async (key: Uint8Array) => forked.get(Buffer.from(key).toString("hex")), async *iterate() {} };
      const own = await module.params!.read(new ModuleReader(source.store.reader(source.height), module.name), ctx);
      expect(await module.params!.read(reader, ctx), module.name).to.deep.equal(own);
    }
    expect(asked.length).to.be.greaterThan(0);
    for (const { path, data } of asked) {
      expect(path, Buffer.from(data).toString()).to.equal("/store/params/subspace");
      expect(isHiddenParamsKey(data)).to.equal(false);
    }
  });
});
