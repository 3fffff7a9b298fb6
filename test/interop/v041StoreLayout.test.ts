import { expect } from "chai";
import { Any } from "cosmjs-types/google/protobuf/any";
import { BaseAccount } from "cosmjs-types/cosmos/auth/v1beta1/auth";
import { Metadata, Supply } from "cosmjs-types/cosmos/bank/v1beta1/bank";
import { Coin } from "cosmjs-types/cosmos/base/v1beta1/coin";
import protobuf from "protobufjs";
import type Long from "long";
import { useStartedDevChain } from "../helpers/startedDevChain.js";
import { abciQuery, addressBytes, decodeKvPairs, valueOf } from "../helpers/rawStore.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { pollUntil } from "../helpers/poll.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const cat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

/** gogotypes.UInt64Value: field 1, varint. */
function decodeUInt64Value(bytes: Uint8Array): bigint {
  const reader = protobuf.Reader.create(bytes);
  let value = 0n;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 0x08) value = BigInt((reader.uint64() as Long).toString());
    else reader.skipType(tag & 7);
  }
  return value;
}

/**
 * Raw store reads (`abci_query /store/<store>/key|subspace`) against the key layout and value
 * encodings of cosmos-sdk v0.41, built here from the SDK's sources, not from the node's code.
 */
describe("interop: raw store reads answer cosmos-sdk v0.41's keys and values", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const query = (path: string, data: Uint8Array | string, height?: number) => abciQuery(chain.node().rpcUrl, path, data, height);
  const read = async (path: string, data: Uint8Array | string, height?: number) => {
    const answer = await query(path, data, height);
    expect(answer.code ?? 0, answer.log).to.equal(0);
    return valueOf(answer);
  };
  const pairs = async (store: string, prefix: Uint8Array | string, height?: number) => decodeKvPairs(await read(`/store/${store}/subspace`, prefix, height));

  before(async () => {
    // one send, so that a later height differs from genesis
    const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 1)]);
    const tx = await directTx(a, { messages: [send(a.address, b.address, "7")], sequence: 0, accountNumber: 0 });
    const body = { jsonrpc: "2.0", id: 1, method: "broadcast_tx_commit", params: { tx: Buffer.from(tx).toString("base64") } };
    const response = await fetch(chain.node().rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const answer = (await response.json()) as { result?: { deliver_tx?: { code?: number } } };
    expect(answer.result?.deliver_tx?.code ?? 0, JSON.stringify(answer)).to.equal(0);
    await pollUntil(
      () => chain.ok("/core/base/consensus/v1beta1/blocks/latest"),
      (block) => Number(block.block.header.height) >= 2,
    );
  });

  // cosmos-sdk v0.41.x x/bank/types/key.go: BalancesPrefix = "balances", SupplyKey = 0x00,
  // DenomMetadataPrefix = 0x01; keeper/send.go SetBalance: "balances" ‖ address ‖ denom → Coin
  // (MarshalBinaryBare); keeper/keeper.go SetSupply: MarshalInterface(Supply) → Any.
  it("bank: balances, the one Supply entry and denom metadata", async () => {
    const [holder] = chain.accounts() as [string];
    const address = addressBytes(holder);
    const balances = (await chain.ok(`/core/bank/v1beta1/balances/${holder}`)).balances as Array<{ denom: string; amount: string }>;
    expect(balances.length).to.be.greaterThan(1);
    for (const { denom, amount } of balances) {
      const stored = await read("/store/bank/key", cat(utf8("balances"), address, utf8(denom)));
      expect(Coin.decode(stored)).to.deep.equal({ denom, amount });
      expect(hex(stored)).to.equal(hex(Coin.encode({ denom, amount }).finish()));
    }
    const listed = await pairs("bank", cat(utf8("balances"), address));
    expect(listed.map((p) => p.key)).to.deep.equal(balances.map((b) => hex(cat(utf8("balances"), address, utf8(b.denom)))));

    const supply = (await chain.ok("/core/bank/v1beta1/supply")).supply as Array<{ denom: string; amount: string }>;
    const any = Any.decode(await read("/store/bank/key", Uint8Array.of(0x00)));
    expect(any.typeUrl).to.equal("/core.bank.v1beta1.Supply");
    expect(Supply.decode(any.value).total).to.deep.equal(supply);
    // 0x00 holds nothing but the supply (the params are in the params store)
    expect((await pairs("bank", Uint8Array.of(0x00))).map((p) => p.key)).to.deep.equal(["00"]);
    expect(await pairs("bank", Uint8Array.of(0xff))).to.deep.equal([]);

    const metadata = (await chain.ok("/core/bank/v1beta1/denoms_metadata")).metadatas as Array<{ base: string; display: string }>;
    const meta = Metadata.decode(await read("/store/bank/key", cat(Uint8Array.of(0x01), utf8(metadata[0]!.base))));
    expect(meta.display).to.equal(metadata[0]!.display);

    // an earlier height answers that height's bytes
    const [, receiver] = chain.accounts() as [string, string];
    const before = Coin.decode(await read("/store/bank/key", cat(utf8("balances"), addressBytes(receiver), utf8("uhub")), 1));
    const after = Coin.decode(await read("/store/bank/key", cat(utf8("balances"), addressBytes(receiver), utf8("uhub"))));
    expect(BigInt(after.amount) - BigInt(before.amount)).to.equal(7n);
  });

  // cosmos-sdk v0.41.x x/auth/types/keys.go: AddressStoreKeyPrefix = 0x01, GlobalAccountNumberKey =
  // "globalAccountNumber"; keeper/keeper.go GetNextAccountNumber stores a gogotypes.UInt64Value.
  it("auth (store acc): accounts as Any under 0x01 ‖ address, the next account number as UInt64Value", async () => {
    const accounts = (await chain.ok("/core/auth/v1beta1/accounts?pagination.limit=1000")).accounts as Array<Record<string, any>>;
    const numbers = accounts.map((a) => BigInt(a.account_number ?? a.base_account.account_number));
    const next = decodeUInt64Value(await read("/store/acc/key", "globalAccountNumber"));
    expect(next).to.equal(numbers.reduce((max, n) => (n > max ? n : max), 0n) + 1n);
    const holder = chain.accounts()[0]!;
    const any = Any.decode(await read("/store/acc/key", cat(Uint8Array.of(0x01), addressBytes(holder))));
    expect(any.typeUrl).to.equal("/core.auth.v1beta1.BaseAccount");
    expect(BaseAccount.decode(any.value).address).to.equal(holder);
    // the account store holds accounts and the counter only
    const stored = await pairs("acc", Uint8Array.of(0x01));
    expect(stored.length).to.equal(accounts.length);
    expect(await pairs("acc", Uint8Array.of(0x00))).to.deep.equal([]);
  });

  // cosmos-sdk v0.41.x x/params/types/subspace.go: "<subspace>/<key>" → amino JSON of the value;
  // the keys are the modules' ParamSetPairs (x/bank/types/params.go, x/auth/types/params.go, …).
  it("params: each subspace's keys hold the amino JSON value", async () => {
    expect(new TextDecoder().decode(await read("/store/params/key", "bank/DefaultSendEnabled"))).to.equal("true");
    const auth = (await chain.ok("/core/auth/v1beta1/params")).params;
    expect(new TextDecoder().decode(await read("/store/params/key", "auth/MaxMemoCharacters"))).to.equal(JSON.stringify(auth.max_memo_characters));
    const keys = (await pairs("params", "auth/")).map((p) => Buffer.from(p.key, "hex").toString());
    expect(keys).to.deep.equal([
      "auth/MaxMemoCharacters",
      "auth/SigVerifyCostED25519",
      "auth/SigVerifyCostSecp256k1",
      "auth/TxSigLimit",
      "auth/TxSizeCostPerByte",
    ]);
  });
});
