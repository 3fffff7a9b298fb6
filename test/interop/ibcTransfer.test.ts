import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { bech32 } from "bech32";
import { coins, DirectSecp256k1HdWallet, makeCosmoshubPath } from "@cosmjs/proto-signing";
import { SigningStargateClient, type DeliverTxResponse } from "@cosmjs/stargate";
import { http } from "../helpers/http.js";
import { runCliToEnd, startNode, type StartedNode } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

const FEE = { amount: coins(5000, "uhub"), gas: "400000" };
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest();
/** The voucher of "uother" received over transfer/channel-0 (the development genesis's denom trace). */
const VOUCHER = `ibc/${sha256("transfer/channel-0/uother").toString("hex").toUpperCase()}`;

/** The events of a transaction's result as type → attributes (the last event of each type); Tendermint 0.34 sends the attributes in base64. */
function eventsOf(result: DeliverTxResponse): Map<string, Record<string, string>> {
  const text = (base64: string) => Buffer.from(base64, "base64").toString();
  const events = new Map<string, Record<string, string>>();
  for (const event of result.events) events.set(event.type, Object.fromEntries(event.attributes.map((a) => [text(a.key), text(a.value)])));
  return events;
}

/** ICS-04 CommitPacket, computed here from the packet's parts: sha256(timeout timestamp ‖ revision ‖ height ‖ sha256(data)), big-endian uint64s. */
function expectedCommitment(data: string, revision: bigint, height: bigint, timestamp: bigint): string {
  const uint64 = (value: bigint) => {
    const out = Buffer.alloc(8);
    out.writeBigUInt64BE(value);
    return out;
  };
  return sha256(Buffer.concat([uint64(timestamp), uint64(revision), uint64(height), sha256(data)])).toString("base64");
}

describe("interop: IBC MsgTransfer signed with cosmjs (cosmos naming profile)", function () {
  this.timeout(90_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  let client: SigningStargateClient;
  let sender: string;
  /** The next send sequence of transfer/channel-0 in the genesis. */
  let sequence: bigint;

  const rest = async (route: string) => {
    const answer = await http(`${node.restUrl}${route}`, { headers: { accept: "application/json" } });
    expect(answer.status, `${route}: ${answer.text}`).to.equal(200);
    return answer.body;
  };
  const balance = async (address: string, denom: string) => {
    const all = (await rest(`/cosmos/bank/v1beta1/balances/${address}`)).balances as Array<{ denom: string; amount: string }>;
    return BigInt(all.find((coin) => coin.denom === denom)?.amount ?? "0");
  };

  before(async () => {
    const init = await runCliToEnd(["init", "--home", home, "--names", "cosmos", "--accounts", "4", "--mnemonic", TEST_MNEMONIC]);
    expect(init.code, init.output).to.equal(0);
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [makeCosmoshubPath(2)] });
    sender = (await wallet.getAccounts())[0]!.address;
    // give the sender vouchers of the peer's "uother", as if received over channel-0 earlier
    const genesisFile = path.join(home, "config", "genesis.json");
    const genesis = JSON.parse(fs.readFileSync(genesisFile, "utf8"));
    const bank = genesis.app_state.bank;
    const entry = bank.balances.find((b: { address: string }) => b.address === sender);
    entry.coins = [...entry.coins, { denom: VOUCHER, amount: "7000" }].sort((a, b) => (a.denom < b.denom ? -1 : 1));
    fs.writeFileSync(genesisFile, JSON.stringify(genesis, null, 2));
    const sends = genesis.app_state.ibc.channel_genesis.send_sequences as Array<{ port_id: string; channel_id: string; sequence: string }>;
    sequence = BigInt(sends.find((s) => s.port_id === "transfer" && s.channel_id === "channel-0")!.sequence);
    node = await startNode(home);
    client = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet);
  });
  after(async () => {
    client?.disconnect();
    await node?.proc.stop();
  });

  it("a transfer of the chain's own coin escrows it, commits the packet and emits send_packet and ibc_transfer", async () => {
    const escrow = bech32.encode("hub", bech32.toWords(sha256("transferchannel-0").subarray(0, 20)));
    const [escrowBefore, senderBefore] = await Promise.all([balance(escrow, "uhub"), balance(sender, "uhub")]);
    const result = await client.sendIbcTokens(
      sender,
      "peer1receiver",
      { denom: "uhub", amount: "1500" },
      "transfer",
      "channel-0",
      { revisionNumber: 1n, revisionHeight: 5000n },
      0,
      FEE,
    );
    expect(result.code, result.rawLog).to.equal(0);
    const events = eventsOf(result);
    const sent = events.get("send_packet")!;
    expect(sent).to.deep.include({
      packet_src_port: "transfer",
      packet_src_channel: "channel-0",
      packet_sequence: String(sequence),
      packet_timeout_height: "1-5000",
      packet_timeout_timestamp: "0",
      packet_channel_ordering: "ORDER_UNORDERED",
      packet_connection: "connection-0",
    });
    expect(JSON.parse(sent.packet_data!)).to.deep.equal({ amount: "1500", denom: "uhub", receiver: "peer1receiver", sender });
    expect(events.get("ibc_transfer")).to.deep.equal({ sender, receiver: "peer1receiver" });
    expect(await balance(escrow, "uhub")).to.equal(escrowBefore + 1500n);
    expect(await balance(sender, "uhub")).to.equal(senderBefore - 1500n - 5000n);
    const commitment = await rest(`/ibc/core/channel/v1beta1/channels/channel-0/ports/transfer/packet_commitments/${sequence}`);
    expect(commitment.commitment).to.equal(expectedCommitment(sent.packet_data!, 1n, 5000n, 0n));
  });

  it("a transfer of vouchers that came over the channel burns them", async () => {
    const supplyBefore = BigInt((await rest(`/cosmos/bank/v1beta1/supply/${encodeURIComponent(VOUCHER)}`)).amount.amount);
    const result = await client.sendIbcTokens(
      sender,
      "peer1receiver",
      { denom: VOUCHER, amount: "2000" },
      "transfer",
      "channel-0",
      undefined,
      4_000_000_000,
      FEE,
    );
    expect(result.code, result.rawLog).to.equal(0);
    const sent = eventsOf(result).get("send_packet")!;
    expect(JSON.parse(sent.packet_data!)).to.deep.include({ denom: "transfer/channel-0/uother", amount: "2000" });
    expect(sent.packet_timeout_height).to.equal("0-0");
    expect(await balance(sender, VOUCHER)).to.equal(5000n);
    expect(BigInt((await rest(`/cosmos/bank/v1beta1/supply/${encodeURIComponent(VOUCHER)}`)).amount.amount)).to.equal(supplyBefore - 2000n);
  });

  it("an unknown channel fails with the channel keeper's error; a bad Msg fails its ValidateBasic", async () => {
    const unknown = await client.sendIbcTokens(
      sender,
      "peer1receiver",
      { denom: "uhub", amount: "1" },
      "transfer",
      "channel-99",
      { revisionNumber: 1n, revisionHeight: 5000n },
      0,
      FEE,
    );
    expect(unknown.code).to.equal(3);
    expect(unknown.rawLog).to.include("port ID (transfer) channel ID (channel-99): channel not found");
    const expired = await client.sendIbcTokens(
      sender,
      "peer1receiver",
      { denom: "uhub", amount: "1" },
      "transfer",
      "channel-0",
      { revisionNumber: 1n, revisionHeight: 10n },
      0,
      FEE,
    );
    expect(expired.code).to.equal(14);
    expect(expired.rawLog).to.include("receiving chain block height >= packet timeout height (1-1200 >= 1-10): packet timeout");
    // the peer's latest consensus state is older than the genesis: a timeout before it has passed
    const stale = await client.sendIbcTokens(sender, "peer1receiver", { denom: "uhub", amount: "1" }, "transfer", "channel-0", undefined, 1_000_000_000, FEE);
    expect(stale.code).to.equal(14);
    expect(stale.rawLog).to.match(
      /receiving chain block timestamp >= packet timeout timestamp \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC >= 2001-09-09 01:46:40 \+0000 UTC\): packet timeout/,
    );
    await client.sendIbcTokens(sender, "", { denom: "uhub", amount: "1" }, "transfer", "channel-0", { revisionNumber: 1n, revisionHeight: 5000n }, 0, FEE).then(
      (r) => expect.fail(`accepted: ${r.rawLog}`),
      (err: Error) => expect(err.message).to.include("missing recipient address: invalid address"),
    );
  });
});
