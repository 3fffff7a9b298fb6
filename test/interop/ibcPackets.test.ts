import { expect } from "chai";
import path from "node:path";
import { readFile, writeFile } from "node:fs/promises";
import { DirectSecp256k1HdWallet, makeCosmoshubPath, type EncodeObject } from "@cosmjs/proto-signing";
import { coins, SigningStargateClient } from "@cosmjs/stargate";
import { Channel, Order, State, type Packet } from "cosmjs-types/ibc/core/channel/v1/channel";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { tempDir } from "../helpers/tempDir.js";
import { be8, counterpartyStore, sha256, utf8, type CounterpartyStore, type Entry } from "../helpers/counterpartyStore.js";
import { ibcOutcomes, startIbcTestChain, stopIbcTestChain, type IbcTestChain } from "../helpers/ibcTestChain.js";

/**
 * The packet Msgs after their proofs, on one cosmos-profile chain: MsgRecvPacket (receipt or next
 * receive sequence, the ICS-20 voucher mint or unescrow, an error acknowledgement, the ack
 * commitment), MsgAcknowledgement (commitment deleted, next ack sequence, refund on an error ack),
 * MsgTimeout and MsgTimeoutOnClose (commitment deleted, refund, an ORDERED channel closed). Each proof
 * has its own consensus state of 07-tendermint-0 (heights 1-1101…), whose root is the app hash of a
 * counterparty store computed in the test and written into genesis.json after `init`. Besides the dev
 * genesis's UNORDERED transfer/channel-0 (counterparty channel-9) the test adds an ORDERED
 * transfer/channel-1 (counterparty channel-8) with two sent packets.
 */
const FEE = { amount: coins(5000, "uhub"), gas: "2000000" };
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const b64text = (value: string) => Buffer.from(value, "base64").toString();
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();
const FAR_FUTURE = 2n ** 62n;
const PEER = "peer1qqqsyqcyq5rqwzqfpg9scrgwpugpzysnw0cvsh";
const FILLER: Entry = { key: "acks/filler", value: utf8("filler") };
const FILLER2: Entry = { key: "acks/filler2", value: utf8("filler") };

const commit = (p: Packet) => sha256(be8(p.timeoutTimestamp), be8(p.timeoutHeight.revisionNumber), be8(p.timeoutHeight.revisionHeight), sha256(p.data));
const tokenData = (denom: string, amount: number, sender: string, receiver: string) =>
  utf8(JSON.stringify({ amount: String(amount), denom, receiver, sender }));
const hostPath = (kind: string, channel: string, sequence?: bigint) =>
  `${kind}/ports/transfer/channels/${channel}${sequence === undefined ? "" : `/sequences/${sequence}`}`;
const voucher = (trace: string) => `ibc/${hex(sha256(utf8(trace)))}`;
const SUCCESS_ACK = utf8('{"result":"AQ=="}');
const ERROR_ACK = utf8('{"error":"the counterparty refused it"}');

/** A packet between our channel and its counterparty: `incoming` from the counterparty, else sent by us. */
function packet(incoming: boolean, ours: string, theirs: string, sequence: bigint, data: Uint8Array, timeoutHeight = 0n): Packet {
  const [src, dst] = incoming ? [theirs, ours] : [ours, theirs];
  return {
    sequence,
    sourcePort: "transfer",
    sourceChannel: src,
    destinationPort: "transfer",
    destinationChannel: dst,
    data,
    timeoutHeight: { revisionNumber: timeoutHeight === 0n ? 0n : 1n, revisionHeight: timeoutHeight },
    timeoutTimestamp: timeoutHeight === 0n ? FAR_FUTURE : 0n,
  };
}

describe("interop: IBC packets received, acknowledged and timed out after their proofs (cosmjs)", function () {
  this.timeout(180_000);
  const home = path.join(tempDir(), "home");
  let chain: IbcTestChain | undefined;
  let client: SigningStargateClient;
  let signer: string;
  let receiver: string;
  let io: ReturnType<typeof ibcOutcomes>;
  const stores = new Map<string, { height: bigint; store: CounterpartyStore }>();
  const packets: Record<string, Packet> = {};

  /** One counterparty store per proof, at its own consensus height. */
  function storeFor(name: string, a: Entry, b: Entry = FILLER) {
    stores.set(name, { height: 1101n + BigInt(stores.size), store: counterpartyStore(a, b) });
  }
  const proofHeight = (name: string) => ({ revisionNumber: 1n, revisionHeight: stores.get(name)!.height });
  const entryProof = (name: string, key: string) => stores.get(name)!.store.proveEntry(key);

  const recv = (name: string) => {
    const p = packets[name]!;
    return {
      typeUrl: "/ibc.core.channel.v1.MsgRecvPacket",
      value: { signer, packet: p, proofCommitment: entryProof(name, hostPath("commitments", p.sourceChannel, p.sequence)), proofHeight: proofHeight(name) },
    };
  };
  const acknowledge = (name: string, ack: Uint8Array) => {
    const p = packets[name]!;
    const proofAcked = entryProof(name, hostPath("acks", p.destinationChannel, p.sequence));
    return {
      typeUrl: "/ibc.core.channel.v1.MsgAcknowledgement",
      value: { signer, packet: p, acknowledgement: ack, proofAcked, proofHeight: proofHeight(name) },
    };
  };

  async function send(messages: EncodeObject[]) {
    const result = await client.signAndBroadcast(signer, messages, FEE);
    expect(result.code, result.rawLog).to.equal(0);
    return result.events.map((e) => ({ type: e.type, attributes: Object.fromEntries(e.attributes.map((a) => [b64text(a.key), b64text(a.value)])) }));
  }
  type Events = Awaited<ReturnType<typeof send>>;
  const eventsOf = (events: Events, type: string, where: Record<string, string> = {}) =>
    events.filter((e) => e.type === type && Object.entries(where).every(([k, v]) => e.attributes[k] === v)).map((e) => e.attributes);
  const query = async (route: string) => {
    const answer = await http(`${chain!.node.restUrl}${route}`, { headers: { accept: "application/json" } });
    return { status: answer.status, body: answer.body };
  };
  const balance = async (address: string, denom: string) =>
    ((await query(`/cosmos/bank/v1beta1/balances/${address}`)).body.balances as Array<{ denom: string; amount: string }>).find((c) => c.denom === denom)
      ?.amount ?? "0";
  const channelPath = (channel: string) => `/ibc/core/channel/v1beta1/channels/${channel}/ports/transfer`;
  const escrow0 = "hub1zk7nsdv96qpnczgpymlup7sxqdfjrrsnlfnu7l"; // AddressHash("transfer" + "channel-0")

  before(async () => {
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [makeCosmoshubPath(1), makeCosmoshubPath(3)] });
    [signer, receiver] = (await wallet.getAccounts()).map((a) => a.address) as [string, string];

    // received on channel-0 from channel-9: vouchers minted; uhub returning (enough escrow, then too much)
    packets.mint = packet(true, "channel-0", "channel-9", 20n, tokenData("uatom", 100, PEER, receiver));
    packets.unescrow = packet(true, "channel-0", "channel-9", 21n, tokenData("transfer/channel-9/uhub", 400, PEER, receiver));
    packets.overdrawn = packet(true, "channel-0", "channel-9", 22n, tokenData("transfer/channel-9/uhub", 5000, PEER, receiver));
    // a later ICS-20 field ("memo") that v0.41's packet data does not know
    packets.memo = packet(true, "channel-0", "channel-9", 23n, utf8('{"amount":"1","denom":"uatom","memo":"hi","receiver":"r","sender":"s"}'));
    // sent on channel-0 by this test's MsgTransfer (sequences 4 and 5 of the dev genesis channel)
    packets.acked = packet(false, "channel-0", "channel-9", 4n, tokenData("uhub", 1000, signer, PEER), 5000n);
    packets.refused = packet(false, "channel-0", "channel-9", 5n, tokenData("uhub", 2000, signer, PEER), 5000n);
    // sent on channel-0 before genesis: one timed out by height, one whose counterparty channel closed
    packets.timedOut = packet(false, "channel-0", "channel-9", 10n, tokenData("uhub", 300, signer, PEER), 1100n);
    packets.closed = packet(false, "channel-0", "channel-9", 11n, tokenData("uhub", 200, signer, PEER), 5000n);
    // ORDERED channel-1: received 1 (then 3, out of order); sent 1 (acknowledged) and 2 (a voucher, timed out)
    packets.ordered1 = packet(true, "channel-1", "channel-8", 1n, tokenData("uatom", 7, PEER, receiver));
    packets.ordered3 = packet(true, "channel-1", "channel-8", 3n, tokenData("uatom", 7, PEER, receiver));
    packets.orderedSent1 = packet(false, "channel-1", "channel-8", 1n, tokenData("uhub", 1, signer, PEER), 5000n);
    packets.orderedSent2 = packet(false, "channel-1", "channel-8", 2n, tokenData("transfer/channel-1/uother", 40, signer, PEER), 1100n);

    for (const name of ["mint", "unescrow", "overdrawn", "memo", "ordered1", "ordered3"]) {
      const p = packets[name]!;
      storeFor(name, { key: hostPath("commitments", p.sourceChannel, p.sequence), value: commit(p) });
    }
    storeFor("acked", { key: hostPath("acks", "channel-9", 4n), value: sha256(SUCCESS_ACK) });
    storeFor("refused", { key: hostPath("acks", "channel-9", 5n), value: sha256(ERROR_ACK) });
    storeFor("orderedSent1", { key: hostPath("acks", "channel-8", 1n), value: sha256(SUCCESS_ACK) });
    storeFor("timedOut", FILLER, FILLER2);
    const closedEnd = Channel.encode({
      state: State.STATE_CLOSED,
      ordering: Order.ORDER_UNORDERED,
      counterparty: { portId: "transfer", channelId: "channel-0" },
      connectionHops: ["connection-3"],
      version: "ics20-1",
    }).finish();
    storeFor("closed", FILLER, { key: "channelEnds/ports/transfer/channels/channel-9", value: closedEnd });
    storeFor("orderedSent2", { key: "nextSequenceRecv/ports/transfer/channels/channel-8", value: be8(2n) });

    chain = await startIbcTestChain(home, async () => {
      const file = path.join(home, "config", "genesis.json");
      const genesis = JSON.parse(await readFile(file, "utf8"));
      const ibc = genesis.app_state.ibc;
      const consensus = ibc.client_genesis.clients_consensus[0].consensus_states;
      const metadata = ibc.client_genesis.clients_metadata[0].client_metadata;
      const added = [...stores.values()].map(({ height, store }) => ({
        height: { revision_number: "1", revision_height: String(height) },
        consensus_state: { ...consensus[0].consensus_state, root: { hash: b64(store.appHash) } },
      }));
      consensus.splice(1, 0, ...added); // between 1-1000 and 1-1200, in height order
      for (const { height } of stores.values()) metadata.push({ key: b64(utf8(`consensusStates/1-${height}/processedTime`)), value: metadata[0].value });
      const channels = ibc.channel_genesis;
      channels.channels.push({
        state: "STATE_OPEN",
        ordering: "ORDER_ORDERED",
        counterparty: { port_id: "transfer", channel_id: "channel-8" },
        connection_hops: ["connection-0"],
        version: "ics20-1",
        port_id: "transfer",
        channel_id: "channel-1",
      });
      channels.next_channel_sequence = "2";
      for (const name of ["timedOut", "closed", "orderedSent1", "orderedSent2"]) {
        const p = packets[name]!;
        channels.commitments.push({ port_id: "transfer", channel_id: p.sourceChannel, sequence: String(p.sequence), data: b64(commit(p)) });
      }
      const sequence = (value: number) => ({ port_id: "transfer", channel_id: "channel-1", sequence: String(value) });
      channels.send_sequences.push(sequence(3));
      channels.recv_sequences.push(sequence(1));
      channels.ack_sequences.push(sequence(1));
      await writeFile(file, JSON.stringify(genesis, null, 2));
    });
    // cosmjs polls for the tx every 3 s by default; this chain commits faster
    const wallet1 = await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [makeCosmoshubPath(1)] });
    client = await SigningStargateClient.connectWithSigner(chain.node.rpcUrl, wallet1, { broadcastPollIntervalMs: 300 });
    io = ibcOutcomes(client, signer, chain.node.restUrl);
    // escrow for the refunds and returning tokens: packets 4 and 5 of channel-0
    const transfers = [packets.acked, packets.refused].map((p) => ({
      typeUrl: "/ibc.applications.transfer.v1.MsgTransfer",
      value: {
        sourcePort: "transfer",
        sourceChannel: "channel-0",
        token: { denom: "uhub", amount: JSON.parse(new TextDecoder().decode(p.data)).amount },
        sender: signer,
        receiver: PEER,
        timeoutHeight: p.timeoutHeight,
        timeoutTimestamp: 0n,
      },
    }));
    await send(transfers);
  });
  after(async () => {
    client?.disconnect();
    await stopIbcTestChain(chain);
  });

  it("MsgRecvPacket: vouchers minted with their denom trace, a returning token unescrowed, an overdrawn escrow acknowledged as an error", async () => {
    const before = { escrow: await balance(escrow0, "uhub"), receiver: await balance(receiver, "uhub") };
    expect(before.escrow).to.equal("3000");
    const events = await send([recv("mint"), recv("unescrow"), recv("overdrawn"), recv("ordered1")]);

    // the receipts and the next receive sequence
    for (const sequence of [20, 21, 22]) expect((await query(`${channelPath("channel-0")}/packet_receipts/${sequence}`)).body.received).to.equal(true);
    expect((await query(`${channelPath("channel-0")}/packet_commitments/19,20,21,22/unreceived_packets`)).body.sequences).to.deep.equal(["19"]);
    expect((await query(`${channelPath("channel-1")}/next_sequence`)).body.next_sequence_receive).to.equal("2");

    // vouchers and their trace; the returning tokens left the escrow
    const atom0 = voucher("transfer/channel-0/uatom");
    expect(await balance(receiver, atom0)).to.equal("100");
    expect(await balance(receiver, voucher("transfer/channel-1/uatom"))).to.equal("7");
    expect((await query(`/ibc/applications/transfer/v1beta1/denom_traces/${atom0.slice(4)}`)).body.denom_trace).to.deep.equal({
      path: "transfer/channel-0",
      base_denom: "uatom",
    });
    expect(await balance(escrow0, "uhub")).to.equal("2600");
    expect(BigInt(await balance(receiver, "uhub")) - BigInt(before.receiver)).to.equal(400n);

    // the acknowledgements: commitments stored, the result or the error in write_acknowledgement
    const unescrowError =
      "unable to unescrow tokens, this may be caused by a malicious counterparty module or a bug: please open an issue on counterparty module: 2600uhub is smaller than 5000uhub: insufficient funds";
    const expectedAcks: Array<[string, bigint, string]> = [
      ["channel-0", 20n, '{"result":"AQ=="}'],
      ["channel-0", 21n, '{"result":"AQ=="}'],
      ["channel-0", 22n, JSON.stringify({ error: unescrowError })],
      ["channel-1", 1n, '{"result":"AQ=="}'],
    ];
    for (const [channel, sequence, ack] of expectedAcks) {
      const stored = (await query(`${channelPath(channel)}/packet_acks/${sequence}`)).body.acknowledgement;
      expect(stored, `${channel}/${sequence}`).to.equal(b64(sha256(utf8(ack))));
      const [written] = eventsOf(events, "write_acknowledgement", { packet_dst_channel: channel, packet_sequence: String(sequence) });
      expect(written?.packet_ack).to.equal(ack);
      expect(written?.packet_connection).to.equal("connection-0");
    }
    const recvEvents = eventsOf(events, "recv_packet");
    expect(recvEvents.map((e) => [e.packet_dst_channel, e.packet_sequence, e.packet_channel_ordering])).to.deep.equal([
      ["channel-0", "20", "ORDER_UNORDERED"],
      ["channel-0", "21", "ORDER_UNORDERED"],
      ["channel-0", "22", "ORDER_UNORDERED"],
      ["channel-1", "1", "ORDER_ORDERED"],
    ]);
    expect(recvEvents[0]).to.include({
      packet_data: new TextDecoder().decode(packets.mint!.data),
      packet_src_channel: "channel-9",
      packet_timeout_height: "0-0",
    });
    expect(eventsOf(events, "denomination_trace")).to.deep.equal([
      { trace_hash: atom0.slice(4), denom: atom0 },
      { trace_hash: voucher("transfer/channel-1/uatom").slice(4), denom: voucher("transfer/channel-1/uatom") },
    ]);
    // v0.41's "success" attribute is `err != nil`: "false" when received, "true" for the error acknowledgement
    expect(eventsOf(events, "fungible_token_packet").map((e) => [e.denom, e.amount, e.success])).to.deep.equal([
      ["uatom", "100", "false"],
      ["transfer/channel-9/uhub", "400", "false"],
      ["transfer/channel-9/uhub", "5000", "true"],
      ["uatom", "7", "false"],
    ]);
    expect(eventsOf(events, "transfer", { sender: escrow0 })).to.deep.equal([{ recipient: receiver, sender: escrow0, amount: "400uhub" }]);
  });

  it("MsgRecvPacket refusals: a packet received twice, an ORDERED channel's packet out of order, packet data that does not decode", async () => {
    await io.refused(recv("mint"), "channel", 13, "receive packet verification failed: packet sequence (20) already has been received: invalid packet");
    await io.refused(recv("ordered3"), "channel", 13, "receive packet verification failed: packet sequence ≠ next receive sequence (3 ≠ 2): invalid packet");
    expect((await query(`${channelPath("channel-1")}/packet_receipts/3`)).body.received).to.equal(false);
    // packet data that does not decode fails the transaction (no receipt, no acknowledgement)
    await io.refused(
      recv("memo"),
      "sdk",
      6,
      'receive packet callback failed: cannot unmarshal ICS-20 transfer packet data: unknown field "memo" in types.FungibleTokenPacketData: unknown request',
    );
    expect((await query(`${channelPath("channel-0")}/packet_receipts/23`)).body.received).to.equal(false);
  });

  it("MsgAcknowledgement, MsgTimeout, MsgTimeoutOnClose: commitments deleted, refunds, the ORDERED channel closed", async () => {
    const before = { signer: BigInt(await balance(signer, "uhub")), escrow: await balance(escrow0, "uhub") };
    const timeout = {
      typeUrl: "/ibc.core.channel.v1.MsgTimeout",
      value: {
        signer,
        packet: packets.timedOut,
        proofUnreceived: stores.get("timedOut")!.store.proveAbsence(hostPath("receipts", "channel-9", 10n)),
        proofHeight: proofHeight("timedOut"),
        nextSequenceRecv: 1n,
      },
    };
    const closedStore = stores.get("closed")!.store;
    const timeoutOnClose = {
      typeUrl: "/ibc.core.channel.v1.MsgTimeoutOnClose",
      value: {
        signer,
        packet: packets.closed,
        proofUnreceived: closedStore.proveAbsence(hostPath("receipts", "channel-9", 11n)),
        proofClose: closedStore.proveEntry("channelEnds/ports/transfer/channels/channel-9"),
        proofHeight: proofHeight("closed"),
        nextSequenceRecv: 1n,
      },
    };
    const orderedTimeout = {
      typeUrl: "/ibc.core.channel.v1.MsgTimeout",
      value: {
        signer,
        packet: packets.orderedSent2,
        proofUnreceived: entryProof("orderedSent2", "nextSequenceRecv/ports/transfer/channels/channel-8"),
        proofHeight: proofHeight("orderedSent2"),
        nextSequenceRecv: 2n,
      },
    };
    const events = await send([
      acknowledge("acked", SUCCESS_ACK),
      acknowledge("refused", ERROR_ACK),
      acknowledge("orderedSent1", SUCCESS_ACK),
      timeout,
      timeoutOnClose,
      orderedTimeout,
    ]);

    // every commitment is gone, so no acknowledgement is awaited any more
    for (const [channel, sequences] of [
      ["channel-0", [4, 5, 10, 11]],
      ["channel-1", [1, 2]],
    ] as const) {
      for (const sequence of sequences) expect((await query(`${channelPath(channel)}/packet_commitments/${sequence}`)).status).to.equal(404);
      expect((await query(`${channelPath(channel)}/packet_commitments/${sequences.join(",")}/unreceived_acks`)).body.sequences).to.deep.equal([]);
    }
    // refunds: 2000 (error ack) + 300 (timeout) + 200 (timeout on close) from the escrow; the voucher minted again; fees paid
    expect(BigInt(await balance(escrow0, "uhub"))).to.equal(BigInt(before.escrow) - 2500n);
    expect(BigInt(await balance(signer, "uhub")) - before.signer).to.equal(2500n - 5000n);
    expect(await balance(signer, voucher("transfer/channel-1/uother"))).to.equal("40");
    expect((await query(channelPath("channel-1"))).body.channel.state).to.equal("STATE_CLOSED");
    expect((await query(channelPath("channel-0"))).body.channel.state).to.equal("STATE_OPEN");

    expect(eventsOf(events, "acknowledge_packet").map((e) => [e.packet_src_channel, e.packet_sequence, e.packet_channel_ordering])).to.deep.equal([
      ["channel-0", "4", "ORDER_UNORDERED"],
      ["channel-0", "5", "ORDER_UNORDERED"],
      ["channel-1", "1", "ORDER_ORDERED"],
    ]);
    expect(eventsOf(events, "fungible_token_packet", { module: "transfer" }).map((e) => e.acknowledgement)).to.deep.equal([
      'result:"\\001" ',
      'error:"the counterparty refused it" ',
      'result:"\\001" ',
    ]);
    expect(eventsOf(events, "fungible_token_packet", { error: "the counterparty refused it" })).to.have.length(1);
    expect(eventsOf(events, "timeout_packet").map((e) => [e.packet_src_channel, e.packet_sequence, e.packet_channel_ordering])).to.deep.equal([
      ["channel-0", "10", "ORDER_UNORDERED"],
      ["channel-0", "11", "ORDER_UNORDERED"],
      ["channel-1", "2", "ORDER_ORDERED"],
    ]);
    expect(eventsOf(events, "timeout")).to.deep.equal([
      { module: "transfer", refund_receiver: signer, refund_denom: "uhub", refund_amount: "300" },
      { module: "transfer", refund_receiver: signer, refund_denom: "uhub", refund_amount: "200" },
      { module: "transfer", refund_receiver: signer, refund_denom: "transfer/channel-1/uother", refund_amount: "40" },
    ]);
  });

  it("after the ORDERED channel closed on timeout, it receives nothing more; an acknowledged packet is not acknowledged again", async () => {
    await io.refused(recv("ordered3"), "channel", 5, "receive packet verification failed: channel state is not OPEN (got STATE_CLOSED): invalid channel state");
    await io.refused(acknowledge("acked", SUCCESS_ACK), "channel", 13, "acknowledge packet verification failed: commitment bytes are not equal: got ([");
  });
});
