import { expect } from "chai";
import { makeCosmoshubPath } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet, Registry, type GeneratedType } from "@cosmjs/proto-signing";
import { coins, defaultRegistryTypes } from "@cosmjs/stargate";
import protobuf from "protobufjs";
import { Codec } from "../../src/codec/codec.js";
import { aminoWallet, type AminoWallet } from "../helpers/aminoWallet.js";
import { startCosmosProfileChain, type CosmosProfileChain } from "../helpers/cosmosProfileChain.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { connectSigningClient } from "../helpers/signingClient.js";
import { LegacyTxFlow } from "../helpers/legacyTxFlow.js";

/**
 * The extension modules' transactions under `names = "cosmos"`: the legacy generate routes build
 * Msgs with the real amino names (`irismod/...`), which an amino wallet signs and `POST /txs`
 * executes; a cosmjs client registering the real type URLs (`/irismod.service.MsgDefineService`)
 * signs in SIGN_MODE_DIRECT. The results are read on the real paths, on the node and through a
 * `gateway --names cosmos`.
 */
describe("interop: extension-module transactions under the cosmos naming profile", function () {
  this.timeout(180_000);
  let chain: CosmosProfileChain;
  let flow: LegacyTxFlow;
  let owner: AminoWallet;

  before(async () => {
    chain = await startCosmosProfileChain(4);
    flow = new LegacyTxFlow(() => chain.node.restUrl);
    owner = await aminoWallet(2);
  });
  after(() => chain?.stop());

  it("a token issued through POST /token/tokens carries irismod/token/MsgIssueToken and shows on /irismod/token/tokens/{denom}", async () => {
    const fields = {
      owner: owner.address,
      symbol: "bird",
      name: "Bird Coin",
      scale: 2,
      min_unit: "cbird",
      initial_supply: "1000",
      max_supply: "2000",
      mintable: true,
    };
    const generated = await flow.post("/token/tokens", { base_req: { from: owner.address, chain_id: "devnet-1" }, ...fields });
    expect(generated.status, generated.text).to.equal(200);
    expect(generated.body.type).to.equal("cosmos-sdk/StdTx");
    expect(generated.body.value.msg[0].type).to.equal("irismod/token/MsgIssueToken");
    const sent = await flow.send(owner, "/token/tokens", fields);
    expect(sent.body.code, sent.body.raw_log).to.equal(undefined);
    expect((await chain.rest("/irismod/token/tokens/bird")).Token).to.deep.include({ "@type": "/irismod.token.Token", symbol: "bird", owner: owner.address });
    const tx = await chain.rest(`/cosmos/tx/v1beta1/txs/${sent.body.txhash}`);
    expect(tx.tx.body.messages[0]["@type"]).to.equal("/irismod.token.MsgIssueToken");
    expect((await chain.rest(`/txs/${sent.body.txhash}`)).tx.value.msg[0].type).to.equal("irismod/token/MsgIssueToken");
  });

  it("a service defined by a cosmjs client with the real type URL /irismod.service.MsgDefineService (SIGN_MODE_DIRECT)", async () => {
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [makeCosmoshubPath(3)] });
    const [account] = await wallet.getAccounts();
    const registry = new Registry([...defaultRegistryTypes, ["/irismod.service.MsgDefineService", generatedType("extmod.service.MsgDefineService")]]);
    const client = await connectSigningClient(chain.node.rpcUrl, wallet, { registry });
    try {
      const schemas = JSON.stringify({ input: { type: "object" }, output: { type: "object" } });
      const result = await client.signAndBroadcast(
        account!.address,
        [
          {
            typeUrl: "/irismod.service.MsgDefineService",
            value: { name: "profile-echo", description: "echoes", tags: [], author: account!.address, author_description: "", schemas },
          },
        ],
        { amount: coins(5000, "uhub"), gas: "400000" },
      );
      expect(result.code, result.rawLog).to.equal(0);
    } finally {
      client.disconnect();
    }
    expect((await chain.rest("/irismod/service/definitions/profile-echo")).service_definition).to.include({ name: "profile-echo", author: account!.address });
    expect((await chain.rest("/service/definitions/profile-echo")).result).to.include({ name: "profile-echo" });
  });
});

/** A Msg of the project's proto tree (the same wire format under every profile) as a cosmjs GeneratedType; values use the proto field names. */
function generatedType(neutralName: string): GeneratedType {
  const type = new Codec().type(neutralName);
  return {
    encode: (message: Record<string, unknown>, writer?: protobuf.Writer) => type.encode(type.fromObject(message), writer),
    decode: (input: Uint8Array) => type.toObject(type.decode(input)),
    fromPartial: (object: Record<string, unknown>) => object,
  };
}
