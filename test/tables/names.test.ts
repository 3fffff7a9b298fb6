import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { loadNamesTable, NamesError } from "../../src/names/namesTable.js";
import { WordMap } from "../../src/names/wordMap.js";
import { loadProtoRoot } from "../../src/codec/protoRoot.js";
import { renameRoot } from "../../src/codec/renameRoot.js";
import { runCliToEnd } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";

describe("naming profiles (names.yaml)", () => {
  const profiles = loadNamesTable();
  const cosmos = profiles.get("cosmos")!;

  it("has the default profile, which renames nothing, and the cosmos profile", () => {
    expect([...profiles.keys()]).to.deep.equal(["seed", "cosmos"]);
    const seed = profiles.get("seed")!;
    expect(seed.isDefault).to.equal(true);
    for (const text of ["/core/bank/v1beta1/balances/{address}", "core.bank.v1beta1.MsgSend", "core-sdk/MsgSend", "consensus/PubKeyEd25519"])
      expect(seed.text(text)).to.equal(text);
  });

  it("maps every context at a name's start, and back", () => {
    const cases: Array<[string, string]> = [
      ["core.bank.v1beta1.Query/AllBalances", "cosmos.bank.v1beta1.Query/AllBalances"],
      ["/core.base.consensus.v1beta1.Service/GetNodeInfo", "/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo"],
      ["/core/base/consensus/v1beta1/blocks/latest", "/cosmos/base/tendermint/v1beta1/blocks/latest"],
      ["/extmod/token/tokens/{denom}", "/irismod/token/tokens/{denom}"],
      ["hubmod.mint.Query/Params", "irishub.mint.Query/Params"],
      ["core-sdk/MsgSend", "cosmos-sdk/MsgSend"],
      ["consensus/PubKeySecp256k1", "tendermint/PubKeySecp256k1"],
      ["extmod/token/MsgIssueToken", "irismod/token/MsgIssueToken"],
      ["query the consensus RPC endpoint", "query the Tendermint RPC endpoint"],
      ["core sdk v0.40 introduces", "cosmos sdk v0.40 introduces"],
    ];
    for (const [neutral, real] of cases) {
      expect(cosmos.text(neutral), neutral).to.equal(real);
      expect(cosmos.neutralText(real), real).to.equal(neutral);
    }
  });

  it("keeps the words inside other names: ibc.core, /ibc/core/, field names, plain text", () => {
    for (const text of ["ibc.core.channel.v1.Query/Channels", "/ibc/core/channel/v1beta1/channels", "consensus_pubkey", "the consensus. Next", "core"])
      expect(cosmos.text(text)).to.equal(text);
  });

  it("type URLs: neutral ones under the cosmos profile match no name the code compares with", () => {
    expect(cosmos.neutralPath("/cosmos.bank.v1beta1.MsgSend")).to.equal("/core.bank.v1beta1.MsgSend");
    expect(cosmos.neutralPath("/core.bank.v1beta1.MsgSend")).to.equal("!/core.bank.v1beta1.MsgSend");
    expect(cosmos.profilePath("/core.tx.v1beta1.Service/Simulate")).to.equal("/cosmos.tx.v1beta1.Service/Simulate");
    expect(cosmos.protoName("cosmos.bank.v1beta1.MsgSend")).to.equal("cosmos.bank.v1beta1.MsgSend");
  });

  it("a package rule must keep the number of segments", () => {
    expect(() => new WordMap("x", { packages: { "core.base": "cosmos" }, paths: {}, amino: {}, texts: {} })).to.throw(/as many segments/);
  });

  it("a mistake in the file is a NamesError naming the key", () => {
    const file = path.join(tempDir(), "names.yaml");
    fs.writeFileSync(file, "cosmos:\n  packages: { core: cosmos }\n  paths: { core: /cosmos/ }\n  amino: {}\n  texts: {}\n");
    expect(() => loadNamesTable(file)).to.throw(NamesError, /names\.yaml: key "cosmos\.paths/);
    fs.writeFileSync(file, "seed:\n  packages: {}\n  paths: {}\n  amino: {}\n  texts: {}\n");
    expect(() => loadNamesTable(file)).to.throw(NamesError, /names\.yaml/);
  });

  it("the proto tree under the cosmos profile: every package renamed, every reference resolved to the renamed type", () => {
    const root = renameRoot(loadProtoRoot(), cosmos);
    const send = root.lookupType(".cosmos.bank.v1beta1.MsgSend");
    expect(send.fields.amount!.resolvedType!.fullName).to.equal(".cosmos.base.v1beta1.Coin");
    const service = root.lookupService(".cosmos.base.tendermint.v1beta1.Service");
    expect(service.methods.GetLatestBlock!.resolvedResponseType!.fullName).to.equal(".cosmos.base.tendermint.v1beta1.GetLatestBlockResponse");
    expect(root.lookupType(".cosmos.base.tendermint.v1beta1.GetLatestBlockResponse").fields.block!.resolvedType!.fullName).to.equal(".tendermint.types.Block");
    expect(root.lookupType(".ibc.applications.transfer.v1.MsgTransfer").fields.token!.resolvedType!.fullName).to.equal(".cosmos.base.v1beta1.Coin");
    expect(root.lookupType(".irismod.token.MsgIssueToken").fullName).to.equal(".irismod.token.MsgIssueToken");
    expect(root.lookupType(".irishub.mint.Params").fullName).to.equal(".irishub.mint.Params");
    for (const neutral of ["core", "extmod", "hubmod", "consensus"]) expect(root.nested?.[neutral], neutral).to.equal(undefined);
  });
});

describe("chain-rest init --names cosmos", function () {
  this.timeout(60_000);

  it("writes the profile to app.toml, keeps --prefix and --denom settable, and the genesis holds the profile's type URLs and key names", async () => {
    const home = path.join(tempDir(), "home");
    const run = await runCliToEnd(["init", "--home", home, "--names", "cosmos", "--prefix", "iaa", "--denom", "uiris", "--accounts", "4"]);
    expect(run.code, run.output).to.equal(0);
    const appToml = fs.readFileSync(path.join(home, "config", "app.toml"), "utf8");
    expect(appToml)
      .to.match(/^names = "cosmos"$/m)
      .and.match(/^bech32-prefix = "iaa"$/m);
    const genesis = fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8");
    const types = [...genesis.matchAll(/"@type": "([^"]+)"/g)].map((m) => m[1]!);
    expect(types).to.include("/cosmos.auth.v1beta1.BaseAccount").and.include("/cosmos.crypto.ed25519.PubKey");
    expect(types.filter((t) => /^\/(core|extmod|hubmod|consensus)\./.test(t))).to.deep.equal([]);
    expect(genesis).to.include('"uiris"').and.include('"iaa1');
    expect(fs.readFileSync(path.join(home, "config", "priv_validator_key.json"), "utf8")).to.include("tendermint/PubKeyEd25519");
  });

  it("refuses a profile names.yaml does not have, naming those it has", async () => {
    const run = await runCliToEnd(["init", "--home", path.join(tempDir(), "home"), "--names", "gaia"]);
    expect(run.code).to.equal(1);
    expect(run.output).to.include('names = "gaia" is not a profile of names.yaml (seed, cosmos)');
  });
});

describe("the OpenAPI document under the cosmos profile (chain-rest swagger --names cosmos)", function () {
  this.timeout(60_000);
  let document: { paths: Record<string, unknown> };

  before(async () => {
    const run = await runCliToEnd(["swagger", "--names", "cosmos"]);
    expect(run.code, run.output).to.equal(0);
    document = JSON.parse(run.output);
  });

  it("validates with swagger-parser", async () => {
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  it("lists the real paths and names, none of the neutral ones", () => {
    const paths = Object.keys(document.paths);
    expect(paths).to.include.members([
      "/cosmos/bank/v1beta1/balances/{address}",
      "/cosmos/base/tendermint/v1beta1/blocks/latest",
      "/irismod/token/tokens",
      "/irishub/mint/params",
      "/ibc/core/channel/v1beta1/channels",
      "/bank/balances/{address}",
    ]);
    expect(paths.filter((p) => /^\/(core|extmod|hubmod)\//.test(p))).to.deep.equal([]);
    const text = JSON.stringify(document);
    expect(text).to.include("cosmos-sdk/MsgSend").and.include("#/definitions/cosmos.bank.v1beta1.QueryAllBalancesResponse").and.not.include("core-sdk/");
    expect(text.match(/(?<![\w./-])(core|extmod|hubmod)\.[a-z]/g) ?? []).to.deep.equal([]);
  });
});
