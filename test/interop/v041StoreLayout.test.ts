import { expect } from "chai";
import { Any } from "cosmjs-types/google/protobuf/any";
import { BaseAccount } from "cosmjs-types/cosmos/auth/v1beta1/auth";
import { Metadata, Supply } from "cosmjs-types/cosmos/bank/v1beta1/bank";
import { Coin } from "cosmjs-types/cosmos/base/v1beta1/coin";
import { Delegation, Validator } from "cosmjs-types/cosmos/staking/v1beta1/staking";
import { FeePool, ValidatorCurrentRewards, ValidatorOutstandingRewards } from "cosmjs-types/cosmos/distribution/v1beta1/distribution";
import { Deposit, Proposal, Vote } from "cosmjs-types/cosmos/gov/v1beta1/gov";
import { Channel } from "cosmjs-types/ibc/core/channel/v1/channel";
import { ConnectionEnd } from "cosmjs-types/ibc/core/connection/v1/connection";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
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

/** A field-1 wrapper (Int64Value / IntProto / BytesValue): its raw field bytes or varint. */
function wrapperField(bytes: Uint8Array): { varint?: bigint; bytes?: Uint8Array } {
  const reader = protobuf.Reader.create(bytes);
  const out: { varint?: bigint; bytes?: Uint8Array } = {};
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 0x08) out.varint = BigInt((reader.int64() as Long).toString());
    else if (tag === 0x0a) out.bytes = reader.bytes();
    else reader.skipType(tag & 7);
  }
  return out;
}

/** The length-delimited fields of a message, by field number. */
function fieldsOf(bytes: Uint8Array): Map<number, Uint8Array[]> {
  const reader = protobuf.Reader.create(bytes);
  const fields = new Map<number, Uint8Array[]>();
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if ((tag & 7) !== 2) {
      reader.skipType(tag & 7);
      continue;
    }
    fields.set(tag >>> 3, [...(fields.get(tag >>> 3) ?? []), reader.bytes()]);
  }
  return fields;
}

/** An sdk.Dec as the REST routes show it ("1.500000000000000000") → its 18-decimal integer, as proto stores it. */
const decInteger = (text: string) => BigInt(text.replace(".", ""));

/** sdk.FormatTimeBytes of an RFC 3339 time. */
function formatTimeBytes(time: string): Uint8Array {
  const [whole, fraction = ""] = time.replace(/Z$/, "").split(".");
  return utf8(`${whole}.${fraction.padEnd(9, "0")}`);
}

const u64 = (value: bigint) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value);
  return out;
};

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

  // cosmos-sdk v0.41.x x/staking/types/keys.go: addresses in keys as they are (20 bytes; the length
  // byte is v0.43's): ValidatorsKey 0x21, ValidatorsByConsAddrKey 0x22, ValidatorsByPowerIndexKey 0x23
  // (power 8 BE ‖ inverted operator), LastValidatorPowerKey 0x11 (Int64Value), LastTotalPowerKey 0x12
  // (sdk.IntProto), DelegationKey 0x31 ‖ delegator ‖ validator.
  it("staking: validators, their indexes, powers and delegations", async () => {
    const validators = (await chain.ok("/core/staking/v1beta1/validators?pagination.limit=100")).validators as Array<Record<string, any>>;
    const bonded = validators.filter((v) => v.status === "BOND_STATUS_BONDED");
    expect(bonded.length).to.be.greaterThan(0);
    let total = 0n;
    for (const rest of validators) {
      const operator = addressBytes(rest.operator_address);
      const stored = Validator.decode(await read("/store/staking/key", cat(Uint8Array.of(0x21), operator)));
      expect(stored.operatorAddress).to.equal(rest.operator_address);
      expect(stored.tokens).to.equal(rest.tokens);
      const pubkey = Any.decode(Any.encode(stored.consensusPubkey!).finish());
      const consensus = createHash("sha256").update(wrapperField(pubkey.value).bytes!).digest().subarray(0, 20);
      expect(hex(await read("/store/staking/key", cat(Uint8Array.of(0x22), consensus)))).to.equal(hex(operator));
      if (rest.status !== "BOND_STATUS_BONDED") continue;
      const power = wrapperField(await read("/store/staking/key", cat(Uint8Array.of(0x11), operator))).varint!;
      expect(power).to.equal(BigInt(rest.tokens) / 1_000_000n);
      total += power;
      if (rest.jailed) continue;
      const inverted = operator.map((b) => ~b & 0xff);
      expect(hex(await read("/store/staking/key", cat(Uint8Array.of(0x23), u64(power), inverted)))).to.equal(hex(operator));
    }
    const totalPower = wrapperField(await read("/store/staking/key", Uint8Array.of(0x12))).bytes!;
    expect(new TextDecoder().decode(totalPower)).to.equal(total.toString());

    const delegator = chain.accounts()[0]!;
    const delegations = (await chain.ok(`/core/staking/v1beta1/delegations/${delegator}`)).delegation_responses as Array<Record<string, any>>;
    expect(delegations.length).to.be.greaterThan(0);
    for (const { delegation } of delegations) {
      const key = cat(Uint8Array.of(0x31), addressBytes(delegator), addressBytes(delegation.validator_address));
      const stored = Delegation.decode(await read("/store/staking/key", key));
      expect(stored.validatorAddress).to.equal(delegation.validator_address);
      expect(BigInt(stored.shares)).to.equal(decInteger(delegation.shares));
    }
    const listed = await pairs("staking", cat(Uint8Array.of(0x31), addressBytes(delegator)));
    expect(listed.length).to.equal(delegations.length);
  });

  // cosmos-sdk v0.41.x x/distribution/types/keys.go: FeePoolKey 0x00, ProposerKey 0x01 (keeper/store.go:
  // gogotypes.BytesValue), ValidatorOutstandingRewardsPrefix 0x02, ValidatorCurrentRewardsPrefix 0x06,
  // DelegatorWithdrawAddrPrefix 0x03, addresses as they are.
  it("distribution: fee pool, previous proposer, a validator's rewards", async () => {
    const pool = (await chain.ok("/core/distribution/v1beta1/community_pool")).pool as Array<{ denom: string; amount: string }>;
    const feePool = FeePool.decode(await read("/store/distribution/key", Uint8Array.of(0x00)));
    expect(feePool.communityPool.map((c) => ({ denom: c.denom, amount: BigInt(c.amount) }))).to.deep.equal(
      pool.map((c) => ({ denom: c.denom, amount: decInteger(c.amount) })),
    );
    const proposer = wrapperField(await read("/store/distribution/key", Uint8Array.of(0x01))).bytes!;
    expect(proposer.length).to.equal(20);
    const validators = (await chain.ok("/core/staking/v1beta1/validators?status=BOND_STATUS_BONDED")).validators as Array<Record<string, any>>;
    const operator = validators[0]!.operator_address as string;
    const outstanding = (await chain.ok(`/core/distribution/v1beta1/validators/${operator}/outstanding_rewards`)).rewards.rewards as Array<{
      denom: string;
      amount: string;
    }>;
    const stored = ValidatorOutstandingRewards.decode(await read("/store/distribution/key", cat(Uint8Array.of(0x02), addressBytes(operator))));
    expect(stored.rewards.map((c) => ({ denom: c.denom, amount: BigInt(c.amount) }))).to.deep.equal(
      outstanding.map((c) => ({ denom: c.denom, amount: decInteger(c.amount) })),
    );
    const current = ValidatorCurrentRewards.decode(await read("/store/distribution/key", cat(Uint8Array.of(0x06), addressBytes(operator))));
    expect(current.period > 0n || Number(current.period) > 0).to.equal(true);
    // nothing under the v0.43 form (0x02 ‖ 20 ‖ address)
    expect(await pairs("distribution", Uint8Array.of(0x02, 20))).to.deep.equal([]);
  });

  // cosmos-sdk v0.41.x x/gov/types/keys.go: ProposalsKeyPrefix 0x00 ‖ id (8 BE), ActiveProposalQueuePrefix
  // 0x01 ‖ end time ‖ id, ProposalIDKey 0x03, DepositsKeyPrefix 0x10 ‖ id ‖ depositor, VotesKeyPrefix 0x20
  // ‖ id ‖ voter; the params in the params store ("gov/depositparams", …).
  it("gov: proposals, the active queue, deposits, votes and the next id", async () => {
    const proposals = (await chain.ok("/core/gov/v1beta1/proposals")).proposals as Array<Record<string, any>>;
    for (const rest of proposals) {
      const stored = Proposal.decode(await read("/store/gov/key", cat(Uint8Array.of(0x00), u64(BigInt(rest.proposal_id)))));
      expect(stored.proposalId.toString()).to.equal(rest.proposal_id);
    }
    const voting = proposals.find((p) => p.status === "PROPOSAL_STATUS_VOTING_PERIOD")!;
    const id = u64(BigInt(voting.proposal_id));
    const queued = await read("/store/gov/key", cat(Uint8Array.of(0x01), formatTimeBytes(voting.voting_end_time), id));
    expect(hex(queued)).to.equal(hex(id));
    expect(hex(await read("/store/gov/key", Uint8Array.of(0x03)))).to.equal(hex(u64(BigInt(Math.max(...proposals.map((p) => Number(p.proposal_id))) + 1))));
    const deposits = (await chain.ok(`/core/gov/v1beta1/proposals/${voting.proposal_id}/deposits`)).deposits as Array<Record<string, any>>;
    expect(deposits.length).to.be.greaterThan(0);
    for (const deposit of deposits) {
      const stored = Deposit.decode(await read("/store/gov/key", cat(Uint8Array.of(0x10), id, addressBytes(deposit.depositor))));
      expect(stored.depositor).to.equal(deposit.depositor);
    }
    const votes = (await chain.ok(`/core/gov/v1beta1/proposals/${voting.proposal_id}/votes`)).votes as Array<Record<string, any>>;
    expect(votes.length).to.be.greaterThan(0);
    for (const vote of votes) {
      const stored = Vote.decode(await read("/store/gov/key", cat(Uint8Array.of(0x20), id, addressBytes(vote.voter))));
      expect(stored.voter).to.equal(vote.voter);
    }
    const depositParams = JSON.parse(new TextDecoder().decode(await read("/store/params/key", "gov/depositparams"))) as Record<string, any>;
    const restParams = (await chain.ok("/core/gov/v1beta1/params/deposit")).deposit_params;
    expect(depositParams.min_deposit).to.deep.equal(restParams.min_deposit);
    expect(await pairs("gov", Uint8Array.of(0x30))).to.deep.equal([]);
  });

  // irishub v1.0 modules/mint: keeper.go SetMinter (MinterKey; keys.go: 0x02) → Minter proto; the
  // params in the "mint" subspace of the params store.
  it("mint: the minter under 0x02, the params in the params store", async () => {
    const genesis = JSON.parse(readFileSync(path.join(chain.home, "config", "genesis.json"), "utf8")) as Record<string, any>;
    const minter = fieldsOf(await read("/store/mint/key", Uint8Array.of(0x02)));
    expect(new TextDecoder().decode(minter.get(2)![0])).to.equal(genesis.app_state.mint.minter.inflation_base);
    expect(minter.get(1)!.length).to.equal(1); // last_update, a Timestamp
    const params = (await chain.ok("/hubmod/mint/params")).params;
    expect(JSON.parse(new TextDecoder().decode(await read("/store/params/key", "mint/MintDenom")))).to.equal(params.mint_denom);
    expect((await pairs("mint", Uint8Array.of(0x01))).length).to.equal(0);
  });

  // irismod modules/token/types/keys.go: 0x01 ‖ symbol → Token, 0x02 ‖ min unit → StringValue(symbol),
  // 0x03 ‖ owner (20 bytes) ‖ symbol → StringValue(symbol).
  it("token: a token by symbol, by min unit and by owner", async () => {
    const tokens = (await chain.ok("/extmod/token/tokens")).Tokens as Array<Record<string, any>>;
    expect(tokens.length).to.be.greaterThan(0);
    for (const token of tokens) {
      const stored = fieldsOf(await read("/store/token/key", cat(Uint8Array.of(0x01), utf8(token.symbol))));
      expect(new TextDecoder().decode(stored.get(1)![0])).to.equal(token.symbol);
      expect(new TextDecoder().decode(stored.get(4)![0])).to.equal(token.min_unit);
      const bySymbol = wrapperField(await read("/store/token/key", cat(Uint8Array.of(0x02), utf8(token.min_unit)))).bytes!;
      expect(new TextDecoder().decode(bySymbol)).to.equal(token.symbol);
      const owned = wrapperField(await read("/store/token/key", cat(Uint8Array.of(0x03), addressBytes(token.owner), utf8(token.symbol)))).bytes!;
      expect(new TextDecoder().decode(owned)).to.equal(token.symbol);
    }
  });

  // cosmos-sdk v0.41.x x/ibc/core/24-host/keys.go: "clients/{id}/clientState" → Any of the client
  // state, "connections/{id}" → ConnectionEnd, "channelEnds/ports/{port}/channels/{channel}" → Channel.
  it("ibc: client states, connections and channels under the ICS-24 host paths", async () => {
    const clients = (await chain.ok("/ibc/core/client/v1beta1/client_states")).client_states as Array<Record<string, any>>;
    expect(clients.length).to.be.greaterThan(0);
    for (const client of clients) {
      const any = Any.decode(await read("/store/ibc/key", `clients/${client.client_id}/clientState`));
      expect(any.typeUrl).to.equal(client.client_state["@type"]);
    }
    const channels = (await chain.ok("/ibc/core/channel/v1beta1/channels")).channels as Array<Record<string, any>>;
    expect(channels.length).to.be.greaterThan(0);
    for (const channel of channels) {
      const stored = Channel.decode(await read("/store/ibc/key", `channelEnds/ports/${channel.port_id}/channels/${channel.channel_id}`));
      expect(stored.connectionHops).to.deep.equal(channel.connection_hops);
      expect(stored.counterparty.channelId).to.equal(channel.counterparty.channel_id);
      const connectionId = channel.connection_hops[0] as string;
      const connection = (await chain.ok(`/ibc/core/connection/v1beta1/connections/${connectionId}`)).connection;
      const end = ConnectionEnd.decode(await read("/store/ibc/key", `connections/${connectionId}`));
      expect(end.clientId).to.equal(connection.client_id);
    }
  });

  // irismod v1.x modules/record/types/keys.go: RecordKey 0x01 ‖ record id → Record; IntraTxCounterKey
  // 0x02 → gogotypes.UInt32Value (the records added so far).
  it("record: records under 0x01 ‖ id, the counter under 0x02", async () => {
    const stored = await pairs("record", Uint8Array.of(0x01));
    expect(stored.length).to.be.greaterThan(0);
    for (const { key, value } of stored) {
      const id = key.slice(2);
      const rest = (await chain.ok(`/extmod/record/records/${id}`)).record;
      const fields = fieldsOf(Buffer.from(value, "hex"));
      expect(new TextDecoder().decode(fields.get(3)![0])).to.equal(rest.creator);
      expect(new TextDecoder().decode(fields.get(1)![0])).to.equal(rest.tx_hash);
    }
    expect(wrapperField(await read("/store/record/key", Uint8Array.of(0x02))).varint).to.equal(BigInt(stored.length));
  });

  // irismod v1.x modules/htlc/types/keys.go: HTLCKey 0x01 ‖ hash lock → HTLC (htlc.proto: sender = 1,
  // expiration_height = 7); HTLCExpiredQueueKey 0x02 ‖ expiration height (8 BE) ‖ hash lock → empty.
  it("htlc: an HTLC under 0x01 ‖ hash lock, its place in the expiration queue", async () => {
    const stored = await pairs("htlc", Uint8Array.of(0x01));
    expect(stored.length).to.be.greaterThan(0);
    for (const { key, value } of stored) {
      const hashLock = key.slice(2);
      const rest = (await chain.ok(`/extmod/htlc/htlcs/${hashLock}`)).htlc;
      expect(new TextDecoder().decode(fieldsOf(Buffer.from(value, "hex")).get(1)![0])).to.equal(rest.sender);
      const queue = await pairs("htlc", cat(Uint8Array.of(0x02), u64(BigInt(rest.expiration_height))));
      expect(queue.map((p) => p.key)).to.include(hex(cat(Uint8Array.of(0x02), u64(BigInt(rest.expiration_height)), Buffer.from(hashLock, "hex"))));
    }
  });

  // irismod v1.x modules/nft/types/keys.go: "/"-delimited keys: 0x01/denom/token → BaseNFT, 0x02/owner
  // (bech32)/denom/token → StringValue(token id), 0x03/denom → UInt64Value (supply), 0x04/denom → Denom.
  it("nft: NFTs, the owner index, the supply and the denom", async () => {
    const collection = (await chain.ok("/extmod/nft/collections/devkitties")).collection as Record<string, any>;
    expect(collection.nfts.length).to.be.greaterThan(0);
    for (const nft of collection.nfts as Array<Record<string, string>>) {
      const stored = fieldsOf(await read("/store/nft/key", `\x01/devkitties/${nft.id}`));
      expect(new TextDecoder().decode(stored.get(5)![0])).to.equal(nft.owner);
      const owned = wrapperField(await read("/store/nft/key", `\x02/${nft.owner}/devkitties/${nft.id}`)).bytes!;
      expect(new TextDecoder().decode(owned)).to.equal(nft.id);
    }
    expect(wrapperField(await read("/store/nft/key", "\x03/devkitties")).varint).to.equal(BigInt(collection.nfts.length));
    const denom = fieldsOf(await read("/store/nft/key", "\x04/devkitties"));
    expect(new TextDecoder().decode(denom.get(1)![0])).to.equal("devkitties");
  });

  // irishub v1.0 modules/guardian/types/keys.go: SuperKey 0x00 ‖ address → Super (address = 3).
  it("guardian: a super under 0x00 ‖ address", async () => {
    const supers = (await chain.ok("/hubmod/guardian/supers")).supers as Array<Record<string, string>>;
    expect(supers.length).to.be.greaterThan(0);
    for (const entry of supers) {
      const stored = fieldsOf(await read("/store/guardian/key", cat(Uint8Array.of(0x00), addressBytes(entry.address!))));
      expect(new TextDecoder().decode(stored.get(3)![0])).to.equal(entry.address);
    }
  });

  // irismod v1.3.1 modules/coinswap: "standardDenom" → gogotypes.StringValue (the pools' standard denom).
  it('coinswap: the standard denom under "standardDenom"', async () => {
    const genesis = JSON.parse(readFileSync(path.join(chain.home, "config", "genesis.json"), "utf8")) as Record<string, any>;
    const stored = wrapperField(await read("/store/coinswap/key", "standardDenom")).bytes!;
    expect(new TextDecoder().decode(stored)).to.equal(genesis.app_state.coinswap.standard_denom);
  });

  // irismod v1.3.1 modules/oracle/types/keys.go: 0x01 "/" feed name → Feed (feed_name = 1,
  // request_context_id = 6); 0x04 / 0x05 "/" feed name → StringValue(feed name) by state.
  it("oracle: feeds under 0x01 / name, indexed by their state", async () => {
    const feeds = (await chain.ok("/extmod/oracle/feeds")).feeds as Array<Record<string, any>>;
    expect(feeds.length).to.be.greaterThan(0);
    for (const { feed, state } of feeds) {
      const stored = fieldsOf(await read("/store/oracle/key", `\x01/${feed.feed_name}`));
      expect(new TextDecoder().decode(stored.get(1)![0])).to.equal(feed.feed_name);
      const byState = state === "RUNNING" ? "\x04" : "\x05";
      const indexed = wrapperField(await read("/store/oracle/key", `${byState}/${feed.feed_name}`)).bytes!;
      expect(new TextDecoder().decode(indexed)).to.equal(feed.feed_name);
    }
  });

  // irismod v1.3.1 modules/service/types/keys.go: ServiceDefinitionKey 0x01 ‖ name → ServiceDefinition;
  // ServiceBindingKey 0x02 ‖ name 0x00 provider (bech32 text) → ServiceBinding (provider = 2).
  it("service: a definition and its bindings", async () => {
    const definition = (await chain.ok("/extmod/service/definitions/price-feed")).service_definition;
    const stored = fieldsOf(await read("/store/service/key", cat(Uint8Array.of(0x01), utf8("price-feed"))));
    expect(new TextDecoder().decode(stored.get(1)![0])).to.equal(definition.name);
    expect(new TextDecoder().decode(stored.get(4)![0])).to.equal(definition.author);
    const bindings = (await chain.ok("/extmod/service/bindings/price-feed")).service_bindings as Array<Record<string, any>>;
    expect(bindings.length).to.be.greaterThan(0);
    for (const binding of bindings) {
      const key = cat(Uint8Array.of(0x02), utf8("price-feed"), Uint8Array.of(0x00), utf8(binding.provider));
      expect(new TextDecoder().decode(fieldsOf(await read("/store/service/key", key)).get(2)![0])).to.equal(binding.provider);
    }
  });

  // cosmos-sdk v0.41.x x/evidence/types/keys.go: KeyPrefixEvidence 0x00 ‖ hash → Any of the evidence
  // (keeper.go MarshalEvidence); an Equivocation's hash is SHA-256 of its protobuf bytes.
  it("evidence: each evidence under 0x00 ‖ SHA-256 of its bytes", async () => {
    const stored = await pairs("evidence", Uint8Array.of(0x00));
    const listed = (await chain.ok("/core/evidence/v1beta1/evidence")).evidence as unknown[];
    expect(stored.length).to.equal(listed.length);
    expect(stored.length).to.be.greaterThan(0);
    for (const { key, value } of stored) {
      const any = Any.decode(Buffer.from(value, "hex"));
      expect(key).to.equal("00" + createHash("sha256").update(any.value).digest("hex"));
      expect(any.typeUrl).to.equal("/core.evidence.v1beta1.Equivocation");
    }
  });

  // cosmos-sdk v0.41.x x/ibc/applications/transfer/types/keys.go: PortKey 0x01 → the port id;
  // DenomTraceKey 0x02 ‖ SHA-256("{path}/{base denom}") → DenomTrace.
  it("transfer: the bound port and the denom traces", async () => {
    expect(new TextDecoder().decode(await read("/store/transfer/key", Uint8Array.of(0x01)))).to.equal("transfer");
    const traces = (await chain.ok("/ibc/applications/transfer/v1beta1/denom_traces")).denom_traces as Array<{ path: string; base_denom: string }>;
    expect(traces.length).to.be.greaterThan(0);
    for (const trace of traces) {
      const hash = createHash("sha256").update(`${trace.path}/${trace.base_denom}`).digest();
      const stored = fieldsOf(await read("/store/transfer/key", cat(Uint8Array.of(0x02), hash)));
      expect(new TextDecoder().decode(stored.get(1)![0])).to.equal(trace.path);
      expect(new TextDecoder().decode(stored.get(2)![0])).to.equal(trace.base_denom);
    }
  });

  // irismod v1.3.1 modules/random/types/keys.go: 0x01 ‖ request id → Random (value = 3); 0x02 ‖
  // generation height (8 BE) ‖ request id → Request (consumer = 2); the request id is
  // SHA-256(request height (8 BE) ‖ consumer address text).
  it("random: randoms by request id, the pending queue by generation height", async () => {
    const randoms = await pairs("random", Uint8Array.of(0x01));
    expect(randoms.length).to.be.greaterThan(0);
    for (const { key, value } of randoms) {
      const rest = (await chain.ok(`/extmod/random/randoms/${key.slice(2)}`)).random;
      expect(new TextDecoder().decode(fieldsOf(Buffer.from(value, "hex")).get(3)![0])).to.equal(rest.value);
    }
    const requests = (await chain.ok("/extmod/random/queue")).requests as Array<{ height: string; consumer: string }>;
    const queued = await pairs("random", Uint8Array.of(0x02));
    expect(queued.length).to.equal(requests.length);
    for (const request of requests) {
      const id = createHash("sha256")
        .update(cat(u64(BigInt(request.height)), utf8(request.consumer)))
        .digest("hex");
      const entry = queued.find((p) => p.key.endsWith(id))!;
      expect(entry.key).to.have.length(2 + 16 + 64);
      expect(new TextDecoder().decode(fieldsOf(Buffer.from(entry.value, "hex")).get(2)![0])).to.equal(request.consumer);
    }
  });
});
