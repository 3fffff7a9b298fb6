import { expect } from "chai";
import { checkAminoTransforms, loadAminoTransforms, AMINO_TRANSFORMS_FILE } from "../../src/tables/aminoTransforms.js";
import { TableError } from "../../src/tables/loadYamlTable.js";
import { tempDir, writeFile } from "../helpers/tempDir.js";
import { testCodec } from "../helpers/testCodec.js";
import fs from "node:fs";

/** amino-transforms.yaml: its JSON Schema and the checks against the proto tree, each mistake with its message. */
describe("amino transforms table (amino-transforms.yaml)", () => {
  const root = testCodec().root;
  const dir = tempDir();
  let n = 0;
  const load = (yamlText: string) => {
    const transforms = loadAminoTransforms(writeFile(dir, `${n++}/amino-transforms.yaml`, yamlText));
    checkAminoTransforms(transforms, root, "amino-transforms.yaml");
    return transforms;
  };
  const rejects = (yamlText: string, message: string) => expect(() => load(yamlText)).to.throw(TableError, message);

  it("loads the project's table, with one entry per row of the specification's Versioning table, each under a comment naming it", () => {
    const transforms = loadAminoTransforms();
    checkAminoTransforms(transforms, root);
    expect(transforms.names.get("core.bank.v1beta1.MsgSend")).to.equal("core-sdk/MsgSend");
    expect(transforms.typesByName.get("tendermint/PubKeySecp256k1")).to.equal("core.crypto.secp256k1.PubKey");
    const text = fs.readFileSync(AMINO_TRANSFORMS_FILE, "utf8");
    const rows = [
      "POST /txs, POST /txs/encode, POST /txs/decode, GET /txs/{hash}, GET /txs",
      "GET /gov/proposals/{id}/votes, GET /gov/proposals/{id}/votes/{voter}",
      "GET /staking/* returning validators",
      "QueryBalance /bank/balances/{address}",
      "QueryValidators",
      "QueryDelegatorDelegations",
      "QueryRedelegations",
      "QueryUnbondingDelegation",
      "Validator outstanding rewards",
      "Validator commission",
      "Validator slashes, delegation rewards",
      "QueryTx (GET /txs, GET /txs/{hash})",
    ];
    for (const row of rows) expect(text, row).to.include(`# Versioning: ${row}`);
    // the one row about a route's parameters lives in legacy-routes.yaml
    expect(fs.readFileSync(AMINO_TRANSFORMS_FILE.replace("amino-transforms", "legacy-routes"), "utf8")).to.include(
      "# Versioning: GET /staking/validators — the status parameter takes the protobuf names",
    );
  });

  describe("JSON Schema errors", () => {
    it("an unknown top-level key", () => rejects("nams: {}\n", 'amino-transforms.yaml: key "nams": is not a known key'));
    it("an amino name that is malformed", () =>
      rejects("names: { core.bank.v1beta1.MsgSend: MsgSend }\n", 'key "names.core.bank.v1beta1.MsgSend": "MsgSend" must match pattern'));
    it("a type name that is malformed", () => rejects("types: { 'not a type': { keep: [a] } }\n", 'key "types.not a type": is not a valid name'));
    it("a rule that is not known", () =>
      rejects("types: { core.base.v1beta1.Coin: { hide: [amount] } }\n", 'key "types.core.base.v1beta1.Coin.hide": is not a known key'));
    it("an empty rule set", () =>
      rejects("types: { core.base.v1beta1.Coin: {} }\n", 'key "types.core.base.v1beta1.Coin": must NOT have fewer than 1 properties'));
    it("a field list that is empty or repeats a field", () => {
      rejects("types: { core.base.v1beta1.Coin: { keep: [] } }\n", 'key "types.core.base.v1beta1.Coin.keep": must NOT have fewer than 1 items');
      rejects("types: { core.base.v1beta1.Coin: { drop: [denom, denom] } }\n", 'key "types.core.base.v1beta1.Coin.drop": must NOT have duplicate items');
    });
    it('keep that is neither a list nor "*"', () => rejects("types: { core.base.v1beta1.Coin: { keep: all } }\n", 'key "types.core.base.v1beta1.Coin.keep"'));
    it("a conversion that is not known", () =>
      rejects("types: { core.tx.v1beta1.Tx: { as: json } }\n", 'key "types.core.tx.v1beta1.Tx.as": must be equal to one of the allowed values'));
    it("an input alias of a malformed name", () =>
      rejects("input_aliases: { 'Pub Key': core.crypto.secp256k1.PubKey }\n", 'key "input_aliases.Pub Key": is not a valid name'));
  });

  describe("errors found against the names and the proto tree", () => {
    it("two types with one amino name", () =>
      rejects(
        "names: { core.bank.v1beta1.MsgSend: core-sdk/MsgSend, core.bank.v1beta1.MsgMultiSend: core-sdk/MsgSend }\n",
        'key "names.core.bank.v1beta1.MsgMultiSend": the amino name core-sdk/MsgSend is already the name of core.bank.v1beta1.MsgSend',
      ));
    it("an alias of a name that exists, or of a type without a name", () => {
      rejects(
        "names: { core.bank.v1beta1.MsgSend: core-sdk/MsgSend }\ninput_aliases: { core-sdk/MsgSend: core.bank.v1beta1.MsgSend }\n",
        'key "input_aliases.core-sdk/MsgSend": core-sdk/MsgSend is already an amino name in "names"',
      );
      rejects(
        "input_aliases: { old/MsgSend: core.bank.v1beta1.MsgSend }\n",
        'key "input_aliases.old/MsgSend": core.bank.v1beta1.MsgSend has no amino name in "names"',
      );
    });
    it("a type that is not in proto/", () =>
      rejects(
        "names: { core.bank.v1beta1.MsgNothing: core-sdk/MsgNothing }\n",
        'key "names.core.bank.v1beta1.MsgNothing": core.bank.v1beta1.MsgNothing is not a message type of proto/',
      ));
    it("a field that the type does not have", () =>
      rejects(
        "types: { core.base.v1beta1.Coin: { keep: [value] } }\n",
        'key "types.core.base.v1beta1.Coin.keep": value is not a field of core.base.v1beta1.Coin (its fields: denom, amount)',
      ));
    it("a rule on a field of the wrong kind", () => {
      rejects("types: { core.base.v1beta1.Coin: { hex: [denom] } }\n", 'key "types.core.base.v1beta1.Coin.hex": denom is not a bytes field');
      rejects("types: { core.base.v1beta1.Coin: { ints: [denom] } }\n", 'key "types.core.base.v1beta1.Coin.ints": denom is not an enum field');
      rejects("types: { core.base.v1beta1.Coin: { numbers: [amount] } }\n", 'key "types.core.base.v1beta1.Coin.numbers": amount is not a 64-bit integer field');
      rejects("types: { core.base.v1beta1.Coin: { flatten: [denom] } }\n", 'key "types.core.base.v1beta1.Coin.flatten": denom is not a message field');
      rejects("types: { core.base.v1beta1.Coin: { as: std-tx } }\n", 'key "types.core.base.v1beta1.Coin.as": std-tx applies to core.tx.v1beta1.Tx only');
    });
  });
});
