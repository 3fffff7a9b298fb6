import { expect } from "chai";
import path from "node:path";
import { createRequire } from "node:module";
import { Any } from "cosmjs-types/google/protobuf/any";
import { BaseAccount } from "cosmjs-types/cosmos/auth/v1beta1/auth";
import { ValidatorSigningInfo } from "cosmjs-types/cosmos/slashing/v1beta1/slashing";
import { http } from "../helpers/http.js";
import { abciQuery as rawQuery, addressBytes, decodeKvPairs, valueOf } from "../helpers/rawStore.js";
import { pollUntil } from "../helpers/poll.js";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

/** The IRIS Hub JavaScript SDK is CommonJS. */
const iris = createRequire(import.meta.url)("@irisnet/irishub-sdk") as {
  newClient(config: Record<string, unknown>): { slashing: { querySigningInfo(address: string, height?: number): Promise<Record<string, unknown>> } };
  types: { ChainNetwork: Record<string, number> };
};

describe("interop: the baseapp's query paths over the node's abci_query (IRIS SDK and raw calls)", function () {
  this.timeout(90_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;

  const abciQuery = (queryPath: string, data?: Uint8Array | string, height?: number) => rawQuery(node.rpcUrl, queryPath, data, height);
  const rest = async (route: string, headers: Record<string, string> = {}) => {
    const answer = await http(`${node.restUrl}${route}`, { headers: { accept: "application/json", ...headers } });
    expect(answer.status, `${route}: ${answer.text}`).to.equal(200);
    return answer.body;
  };
  let consensus: string;
  let signers: Awaited<ReturnType<typeof testSigner>>[];

  before(async () => {
    initDevHome(home, { accounts: 4, mnemonic: TEST_MNEMONIC });
    node = await startNode(home);
    // a few blocks, so that earlier heights differ from the latest
    signers = await Promise.all([testSigner(TEST_MNEMONIC, 0, "hub"), testSigner(TEST_MNEMONIC, 1, "hub")]);
    const [a, b] = signers as [Awaited<ReturnType<typeof testSigner>>, Awaited<ReturnType<typeof testSigner>>];
    for (let sequence = 0; sequence < 2; sequence++) {
      const tx = await directTx(a, { messages: [send(a.address, b.address, "3")], sequence, accountNumber: 0 });
      const body = { jsonrpc: "2.0", id: 1, method: "broadcast_tx_commit", params: { tx: Buffer.from(tx).toString("base64") } };
      await fetch(node.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    }
    await pollUntil(
      () => rest("/core/base/consensus/v1beta1/blocks/latest"),
      (block) => Number(block.block.header.height) >= 3,
    );
    // the signing validator's (the development genesis also holds a tombstoned one)
    consensus = ((await rest("/core/slashing/v1beta1/signing_infos")).info as Array<{ address: string; tombstoned: boolean }>).find(
      (i) => !i.tombstoned,
    )!.address;
  });
  after(() => node?.proc.stop());

  it("the IRIS SDK reads a validator's signing info with /store/slashing/key, at the latest and at an earlier height", async () => {
    const client = iris.newClient({ node: node.rpcUrl, chainNetwork: iris.types.ChainNetwork.Cosmos, chainId: "dev" });
    const latest = (await rest("/core/slashing/v1beta1/signing_infos/" + consensus)).val_signing_info;
    const info = await client.slashing.querySigningInfo(consensus);
    expect(addressBytes(String(info.address))).to.deep.equal(addressBytes(consensus));
    expect(String(info.indexOffset)).to.equal(latest.index_offset);
    expect(String(info.startHeight)).to.equal(latest.start_height);
    const earlier = (await rest("/core/slashing/v1beta1/signing_infos/" + consensus, { "x-cosmos-block-height": "2" })).val_signing_info;
    const atTwo = await client.slashing.querySigningInfo(consensus, 2);
    expect(String(atTwo.indexOffset)).to.equal(earlier.index_offset);
    expect(Number(latest.index_offset)).to.be.greaterThan(Number(earlier.index_offset));
  });

  it("/store/<store>/key answers the stored bytes; /subspace the pairs under the prefix as kv.Pairs", async () => {
    const key = Uint8Array.of(0x01, ...addressBytes(consensus));
    const one = await abciQuery("/store/slashing/key", key, 2);
    expect(one).to.deep.include({ height: "2" });
    expect(one.code ?? 0).to.equal(0);
    const decoded = ValidatorSigningInfo.decode(valueOf(one));
    expect(decoded.address).to.equal(consensus);
    const all = await abciQuery("/store/slashing/subspace", Uint8Array.of(0x01), 2);
    const pairs = decodeKvPairs(valueOf(all));
    expect(pairs.length).to.equal((await rest("/core/slashing/v1beta1/signing_infos", { "x-cosmos-block-height": "2" })).info.length);
    expect(pairs).to.deep.include({ key: Buffer.from(key).toString("hex"), value: Buffer.from(valueOf(one)).toString("hex") });
    // x/auth's store is "acc": 0x01 ‖ address → the account as an Any
    const [account] = (await rest("/core/auth/v1beta1/accounts?pagination.limit=1")).accounts;
    const stored = Any.decode(valueOf(await abciQuery("/store/acc/key", Uint8Array.of(0x01, ...addressBytes(account.address)))));
    expect(stored.typeUrl).to.equal("/core.auth.v1beta1.BaseAccount");
    expect(BaseAccount.decode(stored.value).address).to.equal(account.address);
    // the params store: "<subspace>/<Key>" → the amino JSON value
    const window = await abciQuery("/store/params/key", "slashing/SignedBlocksWindow");
    const params = (await rest("/core/slashing/v1beta1/params")).params;
    expect(Buffer.from(valueOf(window)).toString()).to.equal(JSON.stringify(params.signed_blocks_window));
    const slashingParams = decodeKvPairs(valueOf(await abciQuery("/store/params/subspace", "slashing/")));
    expect(slashingParams.map((p) => Buffer.from(p.key, "hex").toString())).to.include("slashing/SignedBlocksWindow");
    // a key the store does not hold: code 0, no value
    const missing = await abciQuery("/store/slashing/key", Uint8Array.of(0x01, 1, 2, 3));
    expect(missing.code ?? 0).to.equal(0);
    expect(missing.value).to.equal(undefined);
  });

  it("store queries fail with the real codes and logs", async () => {
    expect(await abciQuery("/store/auth/key", Uint8Array.of(1))).to.deep.include({ code: 6, codespace: "sdk", log: "no such store: auth: unknown request" });
    expect(await abciQuery("/store/bank/key")).to.deep.include({ code: 2, codespace: "sdk", log: "query cannot be zero length: tx parse error" });
    expect(await abciQuery("/store/bank/values", Uint8Array.of(1))).to.deep.include({ code: 6, log: "unexpected query path: /values: unknown request" });
    const future = await abciQuery("/store/bank/key", Uint8Array.of(1), 10_000);
    expect(future).to.deep.include({ log: "version does not exist", height: "10000" });
    expect(future.code ?? 0).to.equal(0);
  });

  it("/app/version, /app/simulate and /p2p/filter answer as the baseapp does", async () => {
    const version = await abciQuery("/app/version");
    expect(version.codespace).to.equal("sdk");
    expect(Buffer.from(valueOf(version)).toString()).to.match(/^\d+\.\d+\.\d+/);
    expect(await abciQuery("/app/nope")).to.deep.include({ code: 6, log: "unknown query: [app nope]: unknown request", height: "0" });
    expect(await abciQuery("/app")).to.deep.include({
      code: 6,
      log: "expected second parameter to be either 'simulate' or 'version', neither was present: unknown request",
    });
    const [a, b] = signers as [Awaited<ReturnType<typeof testSigner>>, Awaited<ReturnType<typeof testSigner>>];
    const account = await rest(`/core/auth/v1beta1/accounts/${a.address}`);
    const tx = await directTx(a, { messages: [send(a.address, b.address, "1")], sequence: Number(account.account.sequence), accountNumber: 0 });
    const simulated = await abciQuery("/app/simulate", tx);
    expect(simulated.code ?? 0, simulated.log).to.equal(0);
    const json = JSON.parse(Buffer.from(valueOf(simulated)).toString()) as { gas_info: { gas_used: string }; result: { events: Array<{ type: string }> } };
    expect(Number(json.gas_info.gas_used)).to.be.greaterThan(0);
    expect(json.result.events.map((e) => e.type)).to.include("transfer");
    expect((await abciQuery("/app/simulate", Uint8Array.of(1, 2, 3))).log).to.match(/^failed to decode tx: /);
    const filter = await abciQuery("/p2p/filter/id/abcdef");
    expect(filter.code ?? 0).to.equal(0);
    expect(filter.value).to.equal(undefined);
    expect(await abciQuery("/p2p/filter")).to.deep.include({ code: 6, log: "path should be p2p filter <addr|id> <parameter>: unknown request" });
    expect(await abciQuery("/p2p/nope/id/x")).to.deep.include({ code: 6, log: "expected second parameter to be 'filter': unknown request" });
    expect(await abciQuery("/nope")).to.deep.include({ code: 6, codespace: "sdk", log: "unknown query path: unknown request" });
  });

  it("/custom/<route>/<path> answers the legacy querier's result as the legacy route shows it", async () => {
    const custom = async (queryPath: string, params?: unknown) => {
      const answer = await abciQuery(queryPath, params === undefined ? "" : JSON.stringify(params));
      expect(answer.code ?? 0, answer.log).to.equal(0);
      return JSON.parse(Buffer.from(valueOf(answer)).toString()) as unknown;
    };
    expect(await custom("/custom/slashing/parameters")).to.deep.equal((await rest("/slashing/parameters")).result);
    expect(await custom("/custom/slashing/signingInfos", { page: 1, limit: 100 })).to.deep.equal((await rest("/slashing/signing_infos")).result);
    const info = (await custom("custom/slashing/signingInfo", { cons_address: consensus })) as { address: string };
    expect(info.address).to.equal(consensus);
    // the parameter names IRIS's SDK sends (Go field names) match the request's fields
    const definition = await custom("custom/service/definition", { ServiceName: "price-feed" });
    expect(definition).to.deep.equal((await rest("/service/definitions/price-feed")).result);
    expect(await abciQuery("/custom/nope/x")).to.deep.include({ code: 6, log: "no custom querier found for route nope: unknown request" });
    expect(await abciQuery("/custom/slashing/signingInfo", "{not json")).to.deep.include({ code: 36 });
  });
});
