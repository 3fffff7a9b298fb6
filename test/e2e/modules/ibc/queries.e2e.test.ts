import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "bech32";
import { readDevAccounts } from "../../../../src/commands/home.js";
import type { HttpAnswer } from "../../../helpers/http.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";
import { proto3JsonTime } from "../../../helpers/timeText.js";

const HEIGHT = "grpc-metadata-x-cosmos-block-height";
const CH = "/ibc/core/channel/v1beta1/channels/channel-0/ports/transfer";
const b64 = (text: string) => Buffer.from(text).toString("base64");
const hashHex = (text: string) =>
  Buffer.from(sha256(new TextEncoder().encode(text)))
    .toString("hex")
    .toUpperCase();

type Json = any;

/** The ibc routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: IBC gateway routes", function () {
  this.timeout(60_000);
  let genesis: Json;
  let devIbc: Json;
  const { home, get } = useStartedDevChain({
    prepare: (home) => {
      const genesisFile = path.join(home, "config", "genesis.json");
      genesis = JSON.parse(fs.readFileSync(genesisFile, "utf8"));
      devIbc = structuredClone(genesis.app_state.ibc);
      extendGenesis(genesis.app_state);
      fs.writeFileSync(genesisFile, JSON.stringify(genesis, null, 2));
      // Empty blocks every 200 ms, so that answers at an older height can be checked.
      const configToml = path.join(home, "config", "config.toml");
      fs.writeFileSync(
        configToml,
        fs
          .readFileSync(configToml, "utf8")
          .replace("create_empty_blocks = false", "create_empty_blocks = true")
          .replace('create_empty_blocks_interval = "1s"', 'create_empty_blocks_interval = "200ms"'),
      );
    },
  });

  /** GET at a fixed height, so that proof_height and height can be checked exactly. */
  const at2 = async (route: string) => {
    const r = await get(route, { "x-cosmos-block-height": "2" });
    expect(r.headers.get(HEIGHT)).to.equal("2");
    return r;
  };
  const selfHeight = { revision_number: "1", revision_height: "2" };

  const ok = (r: HttpAnswer) => {
    expect(r.status, r.text).to.equal(200);
    return r.body;
  };

  const expectError = (r: HttpAnswer, status: number, message: string) => {
    expect(r.status, r.text).to.equal(status);
    expect(r.body).to.deep.equal({ code: status === 404 ? 5 : 3, message, details: [] });
  };
  const notFound = (desc: string) => `rpc error: code = NotFound desc = ${desc}: key not found`;
  const invalid = (desc: string) => `rpc error: code = InvalidArgument desc = ${desc}: invalid request`;

  /** Every item of a list, walked with pagination.limit=1 and next_key; checks the page count. */
  const walk = async (route: string, field: string, pages: number) => {
    const items: Json[] = [];
    let key: string | null = null;
    let count = 0;
    do {
      const separator = route.includes("?") ? "&" : "?";
      const r: HttpAnswer = await get(`${route}${separator}pagination.limit=1${key ? `&pagination.key=${encodeURIComponent(key)}` : ""}`);
      const body = ok(r);
      expect(body[field], `${route} page ${count}`).to.have.length(1);
      expect(body.pagination.total).to.equal("0");
      items.push(body[field][0]);
      key = body.pagination.next_key;
      count++;
    } while (key);
    expect(count, `pages of ${route}`).to.equal(pages);
    return items;
  };

  /** The same list in offset mode, one item per page, with count_total. */
  const walkOffsets = async (route: string, field: string, total: number) => {
    const items: Json[] = [];
    for (let offset = 0; offset < total; offset++) {
      const separator = route.includes("?") ? "&" : "?";
      const body = ok(await get(`${route}${separator}pagination.offset=${offset}&pagination.limit=1&pagination.count_total=true`));
      expect(body.pagination.total).to.equal(String(total));
      expect(body.pagination.next_key === null).to.equal(offset === total - 1);
      items.push(...body[field]);
    }
    return items;
  };

  before(async () => {
    // wait until height 2 exists
    for (let latest = 0; latest < 3;) {
      latest = Number((await get("/ibc/client/v1beta1/params")).headers.get(HEIGHT));
      if (latest < 3) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  describe("ICS-02 clients", () => {
    const clientState = () => devIbc.client_genesis.clients[0].client_state;
    const consensusState = (i: number) => devIbc.client_genesis.clients_consensus[0].consensus_states[i].consensus_state;

    it("the development client of the peer chain: a 07-tendermint client state with the SDK proof specs", () => {
      expect(clientState()).to.deep.include({
        "@type": "/ibc.lightclients.tendermint.v1.ClientState",
        chain_id: "peer-1",
        trust_level: { numerator: "1", denominator: "3" },
        trusting_period: "1209600s",
        unbonding_period: "1814400s",
        max_clock_drift: "10s",
        frozen_height: { revision_number: "0", revision_height: "0" },
        latest_height: { revision_number: "1", revision_height: "1200" },
        upgrade_path: ["upgrade", "upgradedIBCState"],
        allow_update_after_expiry: false,
        allow_update_after_misbehaviour: false,
      });
      expect(clientState().proof_specs.map((s: Json) => s.inner_spec.child_size)).to.deep.equal([33, 32]);
    });

    it("serves one client state packed in an Any, with no proof and the queried height as proof height", async () => {
      const body = ok(await at2("/ibc/core/client/v1beta1/client_states/07-tendermint-0"));
      expect(body).to.deep.equal({ client_state: clientState(), proof: null, proof_height: selfHeight });
    });

    it("404 for a client that does not exist, 400 for an invalid client id", async () => {
      expectError(await get("/ibc/core/client/v1beta1/client_states/07-tendermint-7"), 404, notFound("07-tendermint-7: light client not found"));
      expectError(
        await get("/ibc/core/client/v1beta1/client_states/client"),
        400,
        invalid("identifier client has invalid length: 6, must be between 9-64 characters: invalid identifier"),
      );
    });

    it("lists the client states, one per page in key and offset mode", async () => {
      const all = ok(await get("/ibc/core/client/v1beta1/client_states"));
      expect(all.client_states.map((c: Json) => c.client_id)).to.deep.equal(["07-tendermint-0", "07-tendermint-1"]);
      expect(all.client_states[0]).to.deep.equal({ client_id: "07-tendermint-0", client_state: clientState() });
      expect(all.pagination).to.deep.equal({ next_key: null, total: "2" });
      expect(await walk("/ibc/core/client/v1beta1/client_states", "client_states", 2)).to.deep.equal(all.client_states);
      expect(await walkOffsets("/ibc/core/client/v1beta1/client_states", "client_states", 2)).to.deep.equal(all.client_states);
    });

    it("serves a consensus state by revision and height, and the latest one with latest_height=true", async () => {
      expect(ok(await at2("/ibc/core/client/v1beta1/consensus_states/07-tendermint-0/revision/1/height/1000"))).to.deep.equal({
        consensus_state: consensusState(0),
        proof: null,
        proof_height: selfHeight,
      });
      expect(ok(await at2("/ibc/core/client/v1beta1/consensus_states/07-tendermint-0/revision/0/height/0?latest_height=true")).consensus_state).to.deep.equal(
        consensusState(1),
      );
    });

    it("the consensus states carry the peer's block times and app hashes", () => {
      const peerLatest = Math.floor(Date.parse(genesis.genesis_time) / 1000) - 60;
      expect(consensusState(1)).to.deep.include({ "@type": "/ibc.lightclients.tendermint.v1.ConsensusState", timestamp: proto3JsonTime(peerLatest * 1000) });
      expect(consensusState(0).timestamp).to.equal(proto3JsonTime((peerLatest - 1000) * 1000));
      expect(consensusState(0).root.hash).to.equal(Buffer.from(sha256(new TextEncoder().encode("peer-1 app hash at 1000"))).toString("base64"));
    });

    it("404 for a height without a consensus state, 400 for height 0", async () => {
      expectError(
        await get("/ibc/core/client/v1beta1/consensus_states/07-tendermint-0/revision/1/height/1100"),
        404,
        notFound("client-id: 07-tendermint-0, height: 1-1100: consensus state not found"),
      );
      expectError(
        await get("/ibc/core/client/v1beta1/consensus_states/07-tendermint-0/revision/1/height/0"),
        400,
        invalid("consensus state height cannot be 0"),
      );
      expectError(
        await get("/ibc/core/client/v1beta1/consensus_states/07-tendermint-7/revision/0/height/0?latest_height=true"),
        404,
        notFound("client-id: 07-tendermint-7, height: 0-0: consensus state not found"),
      );
    });

    it("lists the consensus states of a client with their heights, skipping the processed-time metadata", async () => {
      const all = ok(await get("/ibc/core/client/v1beta1/consensus_states/07-tendermint-0"));
      expect(all).to.deep.equal({
        consensus_states: [
          { height: { revision_number: "1", revision_height: "1000" }, consensus_state: consensusState(0) },
          { height: { revision_number: "1", revision_height: "1200" }, consensus_state: consensusState(1) },
        ],
        pagination: { next_key: null, total: "2" },
      });
      expect(await walk("/ibc/core/client/v1beta1/consensus_states/07-tendermint-0", "consensus_states", 2)).to.deep.equal(all.consensus_states);
      expect(await walkOffsets("/ibc/core/client/v1beta1/consensus_states/07-tendermint-0", "consensus_states", 2)).to.deep.equal(all.consensus_states);
      expect(ok(await get("/ibc/core/client/v1beta1/consensus_states/07-tendermint-7"))).to.deep.equal({
        consensus_states: [],
        pagination: { next_key: null, total: "0" },
      });
    });

    it("serves the client params at /ibc/client/v1beta1/params", async () => {
      expect(ok(await get("/ibc/client/v1beta1/params"))).to.deep.equal({ params: { allowed_clients: ["06-solomachine", "07-tendermint"] } });
    });
  });

  describe("ICS-03 connections", () => {
    const connection0 = {
      client_id: "07-tendermint-0",
      versions: [{ identifier: "1", features: ["ORDER_ORDERED", "ORDER_UNORDERED"] }],
      state: "STATE_OPEN",
      counterparty: { client_id: "07-tendermint-5", connection_id: "connection-3", prefix: { key_prefix: b64("ibc") } },
      delay_period: "0",
    };

    it("serves a connection end", async () => {
      expect(ok(await at2("/ibc/core/connection/v1beta1/connections/connection-0"))).to.deep.equal({
        connection: connection0,
        proof: null,
        proof_height: selfHeight,
      });
      expectError(await get("/ibc/core/connection/v1beta1/connections/connection-9"), 404, notFound("connection-9: connection not found"));
      expectError(
        await get("/ibc/core/connection/v1beta1/connections/conn-0"),
        400,
        invalid("identifier conn-0 has invalid length: 6, must be between 10-64 characters: invalid identifier"),
      );
    });

    it("lists the connections with their ids and the height, one per page", async () => {
      const all = ok(await at2("/ibc/core/connection/v1beta1/connections"));
      expect(all.connections[0]).to.deep.equal({ id: "connection-0", ...connection0 });
      expect(all.connections.map((c: Json) => [c.id, c.client_id, c.state])).to.deep.equal([
        ["connection-0", "07-tendermint-0", "STATE_OPEN"],
        ["connection-1", "07-tendermint-1", "STATE_INIT"],
      ]);
      expect(all.pagination).to.deep.equal({ next_key: null, total: "2" });
      expect(all.height).to.deep.equal(selfHeight);
      expect(await walk("/ibc/core/connection/v1beta1/connections", "connections", 2)).to.deep.equal(all.connections);
      expect(await walkOffsets("/ibc/core/connection/v1beta1/connections", "connections", 2)).to.deep.equal(all.connections);
    });

    it("serves the connection paths of a client", async () => {
      expect(ok(await at2("/ibc/core/connection/v1beta1/client_connections/07-tendermint-0"))).to.deep.equal({
        connection_paths: ["connection-0"],
        proof: null,
        proof_height: selfHeight,
      });
      expectError(
        await get("/ibc/core/connection/v1beta1/client_connections/07-tendermint-9"),
        404,
        notFound("07-tendermint-9: light client connection paths not found"),
      );
    });

    it("serves the client state of a connection", async () => {
      expect(ok(await at2("/ibc/core/connection/v1beta1/connections/connection-0/client_state"))).to.deep.equal({
        identified_client_state: { client_id: "07-tendermint-0", client_state: devIbc.client_genesis.clients[0].client_state },
        proof: null,
        proof_height: selfHeight,
      });
      expectError(
        await get("/ibc/core/connection/v1beta1/connections/connection-9/client_state"),
        404,
        notFound("connection-id: connection-9: connection not found"),
      );
    });

    it("serves the consensus state of a connection's client at a height", async () => {
      expect(ok(await at2("/ibc/core/connection/v1beta1/connections/connection-0/consensus_state/revision/1/height/1200"))).to.deep.equal({
        consensus_state: devIbc.client_genesis.clients_consensus[0].consensus_states[1].consensus_state,
        client_id: "07-tendermint-0",
        proof: null,
        proof_height: selfHeight,
      });
      expectError(
        await get("/ibc/core/connection/v1beta1/connections/connection-0/consensus_state/revision/1/height/7"),
        404,
        notFound("client-id: 07-tendermint-0: consensus state not found"),
      );
      expectError(
        await get("/ibc/core/connection/v1beta1/connections/connection-9/consensus_state/revision/1/height/1200"),
        404,
        notFound("connection-id: connection-9: connection not found"),
      );
    });
  });

  describe("ICS-04 channels and packets", () => {
    const channel0 = {
      state: "STATE_OPEN",
      ordering: "ORDER_UNORDERED",
      counterparty: { port_id: "transfer", channel_id: "channel-9" },
      connection_hops: ["connection-0"],
      version: "ics20-1",
    };
    const commitments = () => devIbc.channel_genesis.commitments;

    it("serves a channel end", async () => {
      expect(ok(await at2(CH))).to.deep.equal({ channel: channel0, proof: null, proof_height: selfHeight });
      expectError(
        await get("/ibc/core/channel/v1beta1/channels/channel-7/ports/transfer"),
        404,
        notFound("port-id: transfer, channel-id channel-7: channel not found"),
      );
      expectError(
        await get("/ibc/core/channel/v1beta1/channels/channel-0/ports/t"),
        400,
        invalid("identifier t has invalid length: 1, must be between 2-64 characters: invalid identifier"),
      );
    });

    it("lists all channels with port and channel ids and the height, one per page", async () => {
      const all = ok(await at2("/ibc/core/channel/v1beta1/channels"));
      expect(all.channels[0]).to.deep.equal({ ...channel0, port_id: "transfer", channel_id: "channel-0" });
      expect(all.channels.map((c: Json) => [c.channel_id, c.connection_hops[0], c.ordering])).to.deep.equal([
        ["channel-0", "connection-0", "ORDER_UNORDERED"],
        ["channel-1", "connection-1", "ORDER_ORDERED"],
        ["channel-2", "connection-0", "ORDER_UNORDERED"],
      ]);
      expect(all.pagination).to.deep.equal({ next_key: null, total: "3" });
      expect(all.height).to.deep.equal(selfHeight);
      expect(await walk("/ibc/core/channel/v1beta1/channels", "channels", 3)).to.deep.equal(all.channels);
      expect(await walkOffsets("/ibc/core/channel/v1beta1/channels", "channels", 3)).to.deep.equal(all.channels);
    });

    it("lists the channels of one connection, paging over that connection's channels only", async () => {
      const all = ok(await get("/ibc/core/channel/v1beta1/connections/connection-0/channels"));
      expect(all.channels.map((c: Json) => c.channel_id)).to.deep.equal(["channel-0", "channel-2"]);
      expect(all.pagination).to.deep.equal({ next_key: null, total: "2" });
      expect(await walk("/ibc/core/channel/v1beta1/connections/connection-0/channels", "channels", 2)).to.deep.equal(all.channels);
      expect(await walkOffsets("/ibc/core/channel/v1beta1/connections/connection-0/channels", "channels", 2)).to.deep.equal(all.channels);
      expect(ok(await get("/ibc/core/channel/v1beta1/connections/connection-1/channels")).channels.map((c: Json) => c.channel_id)).to.deep.equal(["channel-1"]);
      expect(ok(await get("/ibc/core/channel/v1beta1/connections/connection-8/channels")).channels).to.deep.equal([]);
    });

    it("serves the client state and a consensus state of a channel", async () => {
      expect(ok(await at2(`${CH}/client_state`))).to.deep.equal({
        identified_client_state: { client_id: "07-tendermint-0", client_state: devIbc.client_genesis.clients[0].client_state },
        proof: null,
        proof_height: selfHeight,
      });
      expect(ok(await at2(`${CH}/consensus_state/revision/1/height/1000`))).to.deep.equal({
        consensus_state: devIbc.client_genesis.clients_consensus[0].consensus_states[0].consensus_state,
        client_id: "07-tendermint-0",
        proof: null,
        proof_height: selfHeight,
      });
      expectError(
        await get("/ibc/core/channel/v1beta1/channels/channel-7/ports/transfer/client_state"),
        404,
        notFound("port-id: transfer, channel-id: channel-7: channel not found"),
      );
      expectError(await get(`${CH}/consensus_state/revision/1/height/3`), 404, notFound("client-id: 07-tendermint-0: consensus state not found"));
      // channel-1's connection has a client without consensus states
      expectError(
        await get("/ibc/core/channel/v1beta1/channels/channel-1/ports/transfer/consensus_state/revision/1/height/1000"),
        404,
        notFound("client-id: 07-tendermint-1: consensus state not found"),
      );
    });

    it("the commitments of the development genesis are ICS-04 commitments of ICS-20 packets sent by account 0", () => {
      const sender = readDevAccounts(home)!.accounts[0]!.address;
      const receiver = bech32.encode("peer", bech32.toWords(sha256(new TextEncoder().encode("peer receiver")).slice(0, 20)));
      const commitment = (amount: number) => {
        const data = `{"amount":"${amount}","denom":"uhub","receiver":"${receiver}","sender":"${sender}"}`;
        const u64 = (n: number) => Buffer.from(new BigUint64Array([BigInt(n)]).buffer).reverse();
        const preimage = Buffer.concat([u64(0), u64(1), u64(2200), sha256(new TextEncoder().encode(data))]);
        return Buffer.from(sha256(preimage)).toString("base64");
      };
      expect(commitments()).to.deep.equal([
        { port_id: "transfer", channel_id: "channel-0", sequence: "2", data: commitment(1000) },
        { port_id: "transfer", channel_id: "channel-0", sequence: "3", data: commitment(2500) },
      ]);
      expect(devIbc.channel_genesis.acknowledgements[0].data).to.equal(Buffer.from(sha256(new TextEncoder().encode('{"result":"AQ=="}'))).toString("base64"));
    });

    it("serves one packet commitment, 404 for a packet without one, 400 for sequence 0", async () => {
      expect(ok(await at2(`${CH}/packet_commitments/2`))).to.deep.equal({ commitment: commitments()[0].data, proof: null, proof_height: selfHeight });
      expectError(await get(`${CH}/packet_commitments/1`), 404, notFound("packet commitment hash not found"));
      expectError(await get(`${CH}/packet_commitments/0`), 400, invalid("packet sequence cannot be 0"));
    });

    it("lists the packet commitments of a channel, one per page", async () => {
      const all = ok(await at2(`${CH}/packet_commitments`));
      expect(all).to.deep.equal({ commitments: commitments(), pagination: { next_key: null, total: "2" }, height: selfHeight });
      expect(await walk(`${CH}/packet_commitments`, "commitments", 2)).to.deep.equal(commitments());
      expect(await walkOffsets(`${CH}/packet_commitments`, "commitments", 2)).to.deep.equal(commitments());
    });

    it("serves one packet acknowledgement and lists them, one per page", async () => {
      const acks = [devIbc.channel_genesis.acknowledgements[0], { port_id: "transfer", channel_id: "channel-0", sequence: "4", data: b64("a".repeat(32)) }];
      expect(ok(await at2(`${CH}/packet_acks/1`))).to.deep.equal({ acknowledgement: acks[0].data, proof: null, proof_height: selfHeight });
      expectError(await get(`${CH}/packet_acks/2`), 404, notFound("packet acknowledgement hash not found"));
      expectError(await get(`${CH}/packet_acks/0`), 400, invalid("packet sequence cannot be 0"));
      expect(ok(await at2(`${CH}/packet_acknowledgements`))).to.deep.equal({
        acknowledgements: acks,
        pagination: { next_key: null, total: "2" },
        height: selfHeight,
      });
      expect(await walk(`${CH}/packet_acknowledgements`, "acknowledgements", 2)).to.deep.equal(acks);
      expect(await walkOffsets(`${CH}/packet_acknowledgements`, "acknowledgements", 2)).to.deep.equal(acks);
    });

    it("says whether a packet was received", async () => {
      expect(ok(await at2(`${CH}/packet_receipts/1`))).to.deep.equal({ received: true, proof: null, proof_height: selfHeight });
      expect(ok(await get(`${CH}/packet_receipts/4`)).received).to.equal(true);
      expect(ok(await get(`${CH}/packet_receipts/2`)).received).to.equal(false);
      expectError(await get(`${CH}/packet_receipts/0`), 400, invalid("packet sequence cannot be 0"));
    });

    it("filters a comma-separated list of sequences to the unreceived packets (no receipt here)", async () => {
      expect(ok(await at2(`${CH}/packet_commitments/1,2,3,4,5/unreceived_packets`))).to.deep.equal({ sequences: ["2", "3", "5"], height: selfHeight });
      expect(ok(await get(`${CH}/packet_commitments/4/unreceived_packets`)).sequences).to.deep.equal([]);
      expectError(await get(`${CH}/packet_commitments/1,0/unreceived_packets`), 400, invalid("packet sequence 1 cannot be 0"));
    });

    it("filters a comma-separated list of sequences to the unreceived acknowledgements (commitment still stored)", async () => {
      expect(ok(await at2(`${CH}/packet_commitments/1,2,3,4/unreceived_acks`))).to.deep.equal({ sequences: ["2", "3"], height: selfHeight });
      expect(ok(await get(`${CH}/packet_commitments/1/unreceived_acks`)).sequences).to.deep.equal([]);
      expectError(await get(`${CH}/packet_commitments/0,3/unreceived_acks`), 400, invalid("packet sequence 0 cannot be 0"));
      const bad = await get(`${CH}/packet_commitments/1,x/unreceived_acks`);
      expect(bad.status).to.equal(400);
      expect(bad.body.message).to.include("packet_ack_sequences");
    });

    it("serves the next receive sequence of a channel", async () => {
      expect(ok(await at2(`${CH}/next_sequence`))).to.deep.equal({ next_sequence_receive: "1", proof: null, proof_height: selfHeight });
      expect(ok(await get("/ibc/core/channel/v1beta1/channels/channel-1/ports/transfer/next_sequence")).next_sequence_receive).to.equal("5");
      expectError(
        await get("/ibc/core/channel/v1beta1/channels/channel-2/ports/transfer/next_sequence"),
        404,
        notFound("port-id: transfer, channel-id channel-2: sequence receive not found"),
      );
    });
  });

  describe("ICS-20 transfer", () => {
    const direct = { path: "transfer/channel-0", base_denom: "uother" };
    const multiHop = { path: "transfer/channel-0/transfer/channel-7", base_denom: "uother" };
    const third = { path: "transfer/channel-2", base_denom: "uthird" };
    // sorted by full path: ".../transfer/channel-7/uother" < ".../uother"
    const traces = [multiHop, direct, third];

    it("serves a denom trace by the hex SHA-256 of its full path, in either case", async () => {
      const hash = hashHex("transfer/channel-0/uother");
      expect(ok(await get(`/ibc/applications/transfer/v1beta1/denom_traces/${hash}`))).to.deep.equal({ denom_trace: direct });
      expect(ok(await get(`/ibc/applications/transfer/v1beta1/denom_traces/${hash.toLowerCase()}`))).to.deep.equal({ denom_trace: direct });
      const multiHopHash = hashHex("transfer/channel-0/transfer/channel-7/uother");
      expect(ok(await get(`/ibc/applications/transfer/v1beta1/denom_traces/${multiHopHash}`))).to.deep.equal({ denom_trace: multiHop });
    });

    it("404 for an unknown hash, 400 for a malformed one", async () => {
      const unknown = hashHex("transfer/channel-5/uother");
      expectError(await get(`/ibc/applications/transfer/v1beta1/denom_traces/${unknown}`), 404, notFound(`${unknown}: denomination trace not found`));
      expectError(
        await get("/ibc/applications/transfer/v1beta1/denom_traces/XYZ"),
        400,
        invalid("invalid denom trace hash XYZ, encoding/hex: invalid byte: U+0058 'X'"),
      );
      expectError(
        await get("/ibc/applications/transfer/v1beta1/denom_traces/ABC"),
        400,
        invalid("invalid denom trace hash ABC, encoding/hex: odd length hex string"),
      );
      expectError(
        await get("/ibc/applications/transfer/v1beta1/denom_traces/ABCD"),
        400,
        invalid("invalid denom trace hash ABCD, expected size to be 32 bytes, got 2 bytes"),
      );
    });

    it("lists the denom traces sorted by full path, and pages over them in hash order", async () => {
      expect(ok(await get("/ibc/applications/transfer/v1beta1/denom_traces"))).to.deep.equal({
        denom_traces: traces,
        pagination: { next_key: null, total: "3" },
      });
      const byHash = [...traces].sort((a, b) => hashHex(`${a.path}/${a.base_denom}`).localeCompare(hashHex(`${b.path}/${b.base_denom}`)));
      expect(await walk("/ibc/applications/transfer/v1beta1/denom_traces", "denom_traces", 3)).to.deep.equal(byHash);
      expect(await walkOffsets("/ibc/applications/transfer/v1beta1/denom_traces", "denom_traces", 3)).to.deep.equal(byHash);
    });

    it("serves the transfer params", async () => {
      expect(ok(await get("/ibc/applications/transfer/v1beta1/params"))).to.deep.equal({ params: { send_enabled: true, receive_enabled: true } });
    });
  });
});

/** More IBC state on top of the development genesis: a second client with a connection in INIT, two more channels, an ack, two more traces. */
function extendGenesis(appState: Json): void {
  const ibc = appState.ibc;
  const client = structuredClone(ibc.client_genesis.clients[0]);
  client.client_id = "07-tendermint-1";
  client.client_state.chain_id = "third-1";
  ibc.client_genesis.clients.push(client);
  ibc.client_genesis.next_client_sequence = "2";

  ibc.connection_genesis.connections.push({
    id: "connection-1",
    client_id: "07-tendermint-1",
    versions: [{ identifier: "1", features: ["ORDER_ORDERED", "ORDER_UNORDERED"] }],
    state: "STATE_INIT",
    counterparty: { client_id: "07-tendermint-2", connection_id: "", prefix: { key_prefix: b64("ibc") } },
    delay_period: "0",
  });
  ibc.connection_genesis.client_connection_paths.push({ client_id: "07-tendermint-1", paths: ["connection-1"] });
  ibc.connection_genesis.next_connection_sequence = "2";

  const channel = ibc.channel_genesis.channels[0];
  ibc.channel_genesis.channels.push(
    {
      ...channel,
      state: "STATE_INIT",
      ordering: "ORDER_ORDERED",
      counterparty: { port_id: "transfer", channel_id: "" },
      connection_hops: ["connection-1"],
      channel_id: "channel-1",
    },
    { ...channel, counterparty: { port_id: "transfer", channel_id: "channel-11" }, channel_id: "channel-2" },
  );
  ibc.channel_genesis.acknowledgements.push({ port_id: "transfer", channel_id: "channel-0", sequence: "4", data: b64("a".repeat(32)) });
  ibc.channel_genesis.receipts.push({ port_id: "transfer", channel_id: "channel-0", sequence: "4", data: b64("\u0001") });
  ibc.channel_genesis.recv_sequences.push({ port_id: "transfer", channel_id: "channel-1", sequence: "5" });
  ibc.channel_genesis.next_channel_sequence = "3";

  appState.transfer.denom_traces.push(
    { path: "transfer/channel-2", base_denom: "uthird" },
    { path: "transfer/channel-0/transfer/channel-7", base_denom: "uother" },
  );
}
