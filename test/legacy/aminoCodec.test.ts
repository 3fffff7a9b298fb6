import { expect } from "chai";
import Long from "long";
import { bech32 } from "bech32";
import { Secp256k1HdWallet, makeCosmoshubPath, makeSignDoc, serializeSignDoc, type AminoMsg } from "@cosmjs/amino";
import { Codec } from "../../src/codec/codec.js";
import { AminoJsonRenderer, goJson, NoAminoEncodingError } from "../../src/codec/amino/aminoJson.js";
import { AminoJsonError, AminoJsonParser, UnknownAminoTypeError } from "../../src/codec/amino/aminoJsonParser.js";
import { AminoBinaryCodec, aminoPrefix, decodeAminoMultisignature, encodeAminoMultisignature } from "../../src/codec/amino/aminoBinary.js";
import { aminoStdTxFromTx, parseStdTx, stdTxFromTx, stdTxToTxRaw, txFromAminoStdTx, txFromTxRaw } from "../../src/codec/amino/stdTx.js";
import { pubKeyAddress } from "../../src/codec/amino/pubKeyAddress.js";
import { stdSignBytes } from "../../src/codec/amino/stdSignDoc.js";
import { aminoTransforms, type AminoTransforms } from "../../src/tables/aminoTransforms.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

const codec = new Codec();
const transforms = aminoTransforms();
const amino = new AminoJsonRenderer(codec.root, transforms);
const parser = new AminoJsonParser(codec.root, transforms);
const binary = new AminoBinaryCodec(codec.root, transforms);
const type = (name: string) => codec.type(name);
const any = (name: string, value: Record<string, unknown>) => ({ type_url: `/${name}`, value: type(name).encode(type(name).fromObject(value)).finish() });
const KEY = new Uint8Array(33).fill(2);

/** A renderer over the project's table plus some rules, to test one rule at a time. */
function withRules(types: Record<string, Partial<ReturnType<AminoTransforms["types"]["get"]>>>): AminoJsonRenderer {
  const copy: AminoTransforms = { ...transforms, types: new Map(transforms.types) };
  for (const [name, rules] of Object.entries(types)) {
    copy.types.set(name, {
      keep: new Set(),
      nulls: new Set(),
      drop: new Set(),
      rename: new Map(),
      hex: new Set(),
      ints: new Set(),
      numbers: new Set(),
      flatten: new Set(),
      fixed: new Map(),
      ...rules,
    });
  }
  return new AminoJsonRenderer(codec.root, copy);
}

describe("amino JSON renderer", () => {
  it("writes 64-bit ints as strings, 32-bit ints and enums as numbers, Dec with 18 decimals, times and durations as amino does", () => {
    const params = type("core.staking.v1beta1.Params");
    expect(
      amino.render(params, { unbonding_time: { seconds: 1814400, nanos: 0 }, max_validators: 100, max_entries: 7, historical_entries: 0, bond_denom: "uhub" }),
    ).to.deep.equal({
      unbonding_time: "1814400000000000",
      max_validators: 100,
      max_entries: 7,
      bond_denom: "uhub",
    });
    const tally = type("core.gov.v1beta1.TallyParams");
    // a Dec in a bytes field (its wire form is the text) is a decimal too
    expect(amino.render(tally, tally.decode(tally.encode({ quorum: new TextEncoder().encode("334000000000000000") }).finish()))).to.deep.include({
      quorum: "0.334000000000000000",
    });
    const vote = type("core.gov.v1beta1.Vote");
    expect(amino.render(vote, { proposal_id: Long.fromNumber(2, true), voter: "hub1x", option: 4 })).to.deep.equal({
      proposal_id: "2",
      voter: "hub1x",
      option: 4,
    });
    const entry = type("core.staking.v1beta1.UnbondingDelegationEntry");
    expect(
      amino.render(entry, { creation_height: 5, completion_time: { seconds: 1609459200, nanos: 120000000 }, initial_balance: "5", balance: "5" }),
    ).to.deep.equal({
      completion_time: "2021-01-01T00:00:00.12Z",
      initial_balance: "5",
      balance: "5",
    });
  });

  it("omits empty fields (omitempty), keeps nullable=false and kept fields, writes nulls and drops, renames, hex", () => {
    const validator = type("core.staking.v1beta1.Validator");
    const shown = amino.render(validator, {
      operator_address: "hubvaloper1x",
      jailed: true,
      unbonding_height: 9,
      description: { moniker: "m" },
      tokens: "",
      delegator_shares: "",
    });
    expect(Object.keys(shown)).to.deep.equal([
      "operator_address",
      "tokens",
      "delegator_shares",
      "description",
      "unbonding_time",
      "commission",
      "min_self_delegation",
    ]);
    expect(shown.description).to.deep.equal({ moniker: "m" });
    const red = type("core.staking.v1beta1.Redelegation");
    expect(amino.render(red, { delegator_address: "d", entries: [] })).to.deep.equal({ delegator_address: "d", entries: null });
    const header = type("consensus.types.Header");
    const h = amino.render(header, { chain_id: "c", height: 3, app_hash: Uint8Array.of(0xab, 0x01), proposer_address: new Uint8Array() });
    expect(h).to.deep.include({ chain_id: "c", height: "3", app_hash: "AB01", proposer_address: "", data_hash: "" });
    expect(h.version).to.deep.equal({});
    const blockId = type("consensus.types.BlockID");
    expect(amino.render(blockId, { hash: Uint8Array.of(1), part_set_header: { total: 1, hash: Uint8Array.of(2) } })).to.deep.equal({
      hash: "01",
      parts: { total: 1, hash: "02" },
    });
  });

  it("flattens, writes numbers and fixed values for a type with its own MarshalJSON (ModuleAccount)", () => {
    const moduleAccount = type("core.auth.v1beta1.ModuleAccount");
    expect(amino.render(moduleAccount, { base_account: { address: "hub1m", account_number: 3 }, name: "distribution" })).to.deep.equal({
      address: "hub1m",
      public_key: "",
      account_number: 3,
      sequence: 0,
      name: "distribution",
      permissions: null,
    });
  });

  it("writes Any values as {type, value} by amino name, keys as their raw bytes; a type without a name cannot be written", () => {
    const account = any("core.auth.v1beta1.BaseAccount", { address: "hub1a", pub_key: any("core.crypto.secp256k1.PubKey", { key: KEY }), sequence: 7 });
    expect(amino.renderAny(account)).to.deep.equal({
      type: "core-sdk/Account",
      value: {
        address: "hub1a",
        public_key: { type: "consensus/PubKeySecp256k1", value: Buffer.from(KEY).toString("base64") },
        account_number: "0",
        sequence: "7",
      },
    });
    expect(() => amino.renderAny(any("ibc.core.client.v1.MsgUpdateClient", { client_id: "c" }))).to.throw(
      NoAminoEncodingError,
      "Cannot encode unregistered concrete type ibc.core.client.v1.MsgUpdateClient",
    );
    // a registered type at the top level of a legacy answer is wrapped, a nested one is not
    const plan = type("core.upgrade.v1beta1.Plan");
    expect(amino.renderTop(plan, { name: "v2", height: 10 })).to.deep.include({ type: "core-sdk/Plan" });
    expect(amino.renderTop(type("core.gov.v1beta1.Vote"), { voter: "v" })).to.deep.equal({ voter: "v" });
  });

  it("writes the v0.41 multisig key as {threshold (number), public_keys} (its quirk before SDK v0.42.2)", () => {
    const multisig = any("core.crypto.multisig.LegacyAminoPubKey", {
      threshold: 2,
      public_keys: [any("core.crypto.secp256k1.PubKey", { key: KEY }), any("core.crypto.secp256k1.PubKey", { key: KEY })],
    });
    const key = { type: "consensus/PubKeySecp256k1", value: Buffer.from(KEY).toString("base64") };
    expect(amino.renderAny(multisig)).to.deep.equal({ type: "consensus/PubKeyMultisigThreshold", value: { threshold: 2, public_keys: [key, key] } });
  });

  it("per-type rules of a table apply: drop, rename, keep", () => {
    const custom = withRules({
      "core.gov.v1beta1.Deposit": { drop: new Set(["amount"]), rename: new Map([["proposal_id", "id"]]), keep: new Set(["depositor"]) },
    });
    expect(custom.render(type("core.gov.v1beta1.Deposit"), { proposal_id: 1, amount: [{ denom: "u", amount: "1" }] })).to.deep.equal({
      id: "1",
      depositor: "",
    });
  });

  it("goJson escapes <, >, & and U+2028/2029 as Go does, and sorts keys for sign bytes", () => {
    expect(goJson({ b: "<a>&\u2028", a: 1 }, true)).to.equal('{"a":1,"b":"\\u003ca\\u003e\\u0026\\u2028"}');
  });
});

describe("amino JSON parser", () => {
  it("reads Msgs by amino name and writes them back the same", () => {
    const msg: AminoMsg = { type: "core-sdk/MsgSend", value: { from_address: "hub1a", to_address: "hub1b", amount: [{ denom: "uhub", amount: "5" }] } };
    expect(amino.renderAny(parser.parseAny(msg, "msg"))).to.deep.equal(msg);
    const proposal = {
      type: "core-sdk/MsgSubmitProposal",
      value: { content: { type: "core-sdk/TextProposal", value: { title: "t", description: "d" } }, initial_deposit: [], proposer: "hub1a" },
    };
    expect(amino.renderAny(parser.parseAny(proposal, "msg"))).to.deep.equal(proposal);
    const unjail = { type: "core-sdk/MsgUnjail", value: { address: "hubvaloper1x" } };
    expect(amino.renderAny(parser.parseAny(unjail, "msg"))).to.deep.equal(unjail);
  });

  it("requires quoted 64-bit integers and names the field", () => {
    expect(() => parser.parseAny({ type: "core-sdk/MsgVote", value: { proposal_id: 1 } }, "msg[0]")).to.throw(
      AminoJsonError,
      "msg[0].value.proposal_id: Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support",
    );
    expect(() => parser.parseAny({ type: "core-sdk/MsgVote", value: { proposal_id: "x" } }, "msg")).to.throw(
      AminoJsonError,
      "msg.value.proposal_id: 'x' is not a valid uint64",
    );
    expect(() => parser.parseAny({ type: "core-sdk/MsgSend", value: { amount: [{ denom: "u", amount: "1.5" }] } }, "m")).to.throw(
      AminoJsonError,
      "m.value.amount[0].amount: '1.5' is not a valid integer",
    );
  });

  it("reads the tendermint/ key names third-party clients write, and both multisig forms", () => {
    const secp = parser.parseAny({ type: "tendermint/PubKeySecp256k1", value: Buffer.from(KEY).toString("base64") }, "k");
    expect(secp.type_url).to.equal("/core.crypto.secp256k1.PubKey");
    const key = { type: "tendermint/PubKeySecp256k1", value: Buffer.from(KEY).toString("base64") };
    const legacy = parser.parseAny({ type: "tendermint/PubKeyMultisigThreshold", value: { threshold: "2", pubkeys: [key, key] } }, "k");
    const v041 = parser.parseAny({ type: "consensus/PubKeyMultisigThreshold", value: { threshold: 2, public_keys: [key, key] } }, "k");
    expect(Buffer.from(legacy.value as Uint8Array)).to.deep.equal(Buffer.from(v041.value as Uint8Array));
  });

  it("refuses a type without an amino name (the IBC core Msgs)", () => {
    expect(() => parser.parseAny({ type: "cosmos-sdk/MsgRecvPacket", value: {} }, "msg[0]")).to.throw(
      UnknownAminoTypeError,
      'msg[0].type: unknown amino type "cosmos-sdk/MsgRecvPacket"',
    );
  });
});

describe("amino binary", () => {
  it("derives go-amino's prefix bytes", () => {
    expect(Buffer.from(aminoPrefix("tendermint/PubKeySecp256k1")).toString("hex")).to.equal("eb5ae987");
    expect(Buffer.from(aminoPrefix("tendermint/PubKeyEd25519")).toString("hex")).to.equal("1624de64");
    expect(Buffer.from(aminoPrefix("tendermint/PubKeyMultisigThreshold")).toString("hex")).to.equal("22c1f7e2");
    expect(Buffer.from(aminoPrefix("cosmos-sdk/StdTx")).toString("hex")).to.equal("282816a9");
  });

  it("transcodes interface fields both ways (a proposal's content)", () => {
    const msg = any("core.gov.v1beta1.MsgSubmitProposal", { content: any("core.gov.v1beta1.TextProposal", { title: "t" }), proposer: "hub1a" });
    const aminoBytes = binary.anyToInterface(msg);
    expect(Buffer.from(aminoBytes.subarray(0, 4))).to.deep.equal(Buffer.from(aminoPrefix("core-sdk/MsgSubmitProposal")));
    const back = binary.interfaceToAny(aminoBytes);
    expect(amino.renderAny(back)).to.deep.equal(amino.renderAny(msg));
  });

  it("round-trips an AminoMultisignature", () => {
    const multi = { bitarray: { extra_bits_stored: 3, elems: Uint8Array.of(0b10100000) }, signatures: [Uint8Array.of(1, 2), Uint8Array.of(3)] };
    expect(decodeAminoMultisignature(encodeAminoMultisignature(multi))).to.deep.equal(multi);
  });
});

describe("StdTx ↔ protobuf tx", () => {
  let signed: { msg: AminoMsg[]; fee: { amount: Array<{ denom: string; amount: string }>; gas: string }; signatures: unknown[]; memo: string };
  let signBytes: Uint8Array;

  before(async () => {
    const wallet = await Secp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [makeCosmoshubPath(0)] });
    const [account] = await wallet.getAccounts();
    const msgs: AminoMsg[] = [
      { type: "core-sdk/MsgSend", value: { from_address: account!.address, to_address: account!.address, amount: [{ denom: "uhub", amount: "1" }] } },
    ];
    const fee = { amount: [{ denom: "uhub", amount: "10" }], gas: "100000" };
    const doc = makeSignDoc(msgs, fee, "devnet-1", "m <&>", 4, 9);
    signBytes = serializeSignDoc(doc);
    const { signature } = await wallet.signAmino(account!.address, doc);
    signed = { msg: msgs, fee, signatures: [signature], memo: "m <&>" };
  });

  it("the project's StdSignBytes are cosmjs's sign doc bytes", () => {
    const bytes = stdSignBytes({
      chainId: "devnet-1",
      accountNumber: "4",
      sequence: "9",
      timeoutHeight: "0",
      fee: signed.fee,
      memo: signed.memo,
      msgs: signed.msg as never,
    });
    expect(Buffer.from(bytes).toString()).to.equal(Buffer.from(signBytes).toString());
  });

  it("converts a StdTx to a TxRaw in LEGACY_AMINO_JSON with the given sequence, and back to the same StdTx", () => {
    const input = parseStdTx(parser, signed, "tx");
    const raw = stdTxToTxRaw(codec.root, input, [Long.fromNumber(9, true)]);
    const tx = txFromTxRaw(codec.root, raw) as { auth_info: { signer_infos: Array<{ sequence: Long; mode_info: { single: { mode: number } } }> } };
    expect(tx.auth_info.signer_infos[0]!.sequence.toString()).to.equal("9");
    expect(tx.auth_info.signer_infos[0]!.mode_info.single.mode).to.equal(127);
    const back = stdTxFromTx(amino, tx);
    const key = (signed.signatures[0] as { pub_key: { value: string } }).pub_key.value;
    expect(back).to.deep.equal({
      ...signed,
      signatures: [{ ...(signed.signatures[0] as object), pub_key: { type: "consensus/PubKeySecp256k1", value: key } }],
      timeout_height: "0",
    });
    expect(encodeAccount(pubKeyAddress(codec.root, (tx.auth_info.signer_infos[0] as unknown as { public_key: never }).public_key))).to.equal(
      signed.msg[0]!.value.from_address,
    );
  });

  it("reads only a StdTx: another key, no Msg, a signature that is not {pub_key, signature} or has no key are refused naming the field", () => {
    const refused: Array<[unknown, string]> = [
      [{}, "tx.msg: required: a StdTx carries at least one Msg"],
      [{ ...signed, msg: [] }, "tx.msg: a StdTx carries at least one Msg"],
      [{ ...signed, tx: {} }, "tx.tx: unknown field: a StdTx has msg, fee, signatures, memo, timeout_height"],
      [{ ...signed, fee: 5 }, 'tx.fee: expected {"amount", "gas"}'],
      [{ ...signed, signatures: [null] }, 'tx.signatures[0]: expected a signature {"pub_key", "signature"}'],
      [{ ...signed, signatures: [1, 2] }, 'tx.signatures[0]: expected a signature {"pub_key", "signature"}'],
      [{ ...signed, signatures: [[[]]] }, 'tx.signatures[0]: expected a signature {"pub_key", "signature"}'],
      // the real conversion failed later, as a 500: "Expecting non nil value to create a new Any"
      [{ ...signed, signatures: [{ pub_key: null, signature: "" }] }, 'tx.signatures[0].pub_key: required: the signer\'s public key {"type", "value"}'],
      [{ ...signed, signatures: [{ pub_key: { type: "x/Key", value: "AA==" }, signature: "" }] }, 'tx.signatures[0].pub_key.type: unknown amino type "x/Key"'],
      // one decimal form, in range: no BOM, sign or overflow into a wrapped Long
      [{ ...signed, timeout_height: "\uFEFF1" }, "tx.timeout_height: Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support"],
      [{ ...signed, timeout_height: "18446744073709551616" }, "tx.timeout_height: '18446744073709551616' is out of range"],
      [{ ...signed, fee: { amount: [], gas: "-1" } }, "tx.fee.gas: Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support"],
    ];
    for (const [json, message] of refused) {
      let thrown: unknown;
      try {
        parseStdTx(parser, json, "tx");
      } catch (err) {
        thrown = err;
      }
      expect(thrown, message).to.be.instanceOf(AminoJsonError).and.not.be.instanceOf(UnknownAminoTypeError);
      expect((thrown as Error).message).to.equal(message);
    }
    expect(() => parseStdTx(parser, { ...signed, msg: [{ type: "x/Msg", value: {} }] }, "tx")).to.throw(
      UnknownAminoTypeError,
      'tx.msg[0].type: unknown amino type "x/Msg"',
    );
    expect(parseStdTx(parser, { ...signed, signatures: null }, "tx").signatures).to.deep.equal([]);
  });

  it("encodes and decodes the amino-binary StdTx", () => {
    const tx = txFromTxRaw(codec.root, stdTxToTxRaw(codec.root, parseStdTx(parser, signed, "tx"), []));
    const bytes = aminoStdTxFromTx(binary, codec.root, tx);
    expect(Buffer.from(bytes.subarray(0, 4)).toString("hex")).to.equal(Buffer.from(aminoPrefix("core-sdk/StdTx")).toString("hex"));
    expect(stdTxFromTx(amino, txFromAminoStdTx(binary, codec.root, bytes))).to.deep.equal(stdTxFromTx(amino, tx));
  });

  it("a multisig signer: the AminoMultisignature becomes mode infos and a MultiSignature, and back", () => {
    const key = { type: "tendermint/PubKeySecp256k1", value: Buffer.from(KEY).toString("base64") };
    const multi = encodeAminoMultisignature({
      bitarray: { extra_bits_stored: 2, elems: Uint8Array.of(0b11000000) },
      signatures: [Uint8Array.of(1), Uint8Array.of(2)],
    });
    const input = parseStdTx(
      parser,
      {
        ...signed,
        signatures: [
          {
            pub_key: { type: "tendermint/PubKeyMultisigThreshold", value: { threshold: "2", pubkeys: [key, key] } },
            signature: Buffer.from(multi).toString("base64"),
          },
        ],
      },
      "tx",
    );
    const tx = txFromTxRaw(codec.root, stdTxToTxRaw(codec.root, input, [])) as {
      auth_info: { signer_infos: Array<{ mode_info: { multi: { mode_infos: unknown[] } } }> };
    };
    expect(tx.auth_info.signer_infos[0]!.mode_info.multi.mode_infos).to.have.length(2);
    const back = stdTxFromTx(amino, tx);
    expect(back.signatures![0]!.signature).to.equal(Buffer.from(multi).toString("base64"));
    expect((back.signatures![0]!.pub_key as { value: { threshold: number } }).value.threshold).to.equal(2);
  });

  it("shows no signatures for a tx signed in another mode", () => {
    const tx = txFromTxRaw(codec.root, stdTxToTxRaw(codec.root, parseStdTx(parser, signed, "tx"), [])) as {
      auth_info: { signer_infos: Array<{ mode_info: unknown }> };
    };
    tx.auth_info.signer_infos[0]!.mode_info = { single: { mode: 1 } };
    expect(stdTxFromTx(amino, tx).signatures).to.deep.equal([]);
  });
});

function encodeAccount(bytes: Uint8Array): string {
  return bech32.encode("hub", bech32.toWords(bytes));
}
