import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { ibcChannelModule } from "../../../../src/node/modules/ibc/channel/module.js";
import { ibcClientModule } from "../../../../src/node/modules/ibc/client/module.js";
import { ibcConnectionModule } from "../../../../src/node/modules/ibc/connection/module.js";
import { transferModule } from "../../../../src/node/modules/ibc/transfer/module.js";
import type { NodeModule } from "../../../../src/node/modules/nodeModule.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

describe("IBC genesis", () => {
  const expectError = (module: NodeModule, edit: (state: Json) => void, message: string) => {
    const state = appState()[module.name];
    edit(state);
    expect(() => validate(module, state)).to.throw(message);
  };
  it("ibc clients: valid ids of an allowed type, consensus states of known clients, a next sequence past the ids", () => {
    expectError(
      ibcClientModule,
      (s) => (s.client_genesis.clients[0].client_id = "07-tm"),
      "client_genesis.clients[0].client_id: identifier 07-tm has invalid length",
    );
    expectError(ibcClientModule, (s) => (s.client_genesis.params.allowed_clients = ["06-solomachine"]), "client type 07-tendermint is not allowed");
    expectError(
      ibcClientModule,
      (s) => (s.client_genesis.clients_consensus[0].client_id = "07-tendermint-3"),
      "clients_consensus[0].client_id: 07-tendermint-3 is not a client",
    );
    expectError(
      ibcClientModule,
      (s) => (s.client_genesis.clients_consensus[0].consensus_states[0].height = { revision_number: "0", revision_height: "0" }),
      "consensus state height cannot be zero",
    );
    expectError(ibcClientModule, (s) => (s.client_genesis.next_client_sequence = "0"), "client_genesis.next_client_sequence: 0 must be greater than");
    expectError(ibcClientModule, (s) => (s.client_genesis.create_localhost = true), "the localhost client is not supported");
    expectError(ibcClientModule, (s) => (s.client_genesis.clients[0].client_state["@type"] = "/ibc.core.client.v1.Height"), "unsupported client state type");
  });

  it("ibc connections and channels: ids, versions, hops, packet sequences", () => {
    expectError(ibcConnectionModule, (s) => (s.connection_genesis.connections[0].versions = []), "connections[0].versions: empty connection versions");
    expectError(
      ibcConnectionModule,
      (s) => (s.connection_genesis.client_connection_paths[0].paths = ["connection-4"]),
      "paths[0]: connection-4 is not a connection",
    );
    expectError(ibcChannelModule, (s) => (s.channel_genesis.channels[0].state = "STATE_UNINITIALIZED_UNSPECIFIED"), "channels[0].state");
    expectError(
      ibcChannelModule,
      (s) => (s.channel_genesis.channels[0].connection_hops = []),
      "connection_hops: a channel has exactly one connection hop, got 0",
    );
    expectError(ibcChannelModule, (s) => (s.channel_genesis.commitments[0].sequence = "0"), "commitments[0].sequence: packet sequence cannot be 0");
    expectError(ibcChannelModule, (s) => (s.channel_genesis.receipts[0].data = ""), "receipts[0].data: data bytes cannot be empty");
  });

  it("transfer: a valid port, traces of port/channel pairs, no duplicates", () => {
    expectError(transferModule, (s) => (s.port_id = ""), "port_id: identifier cannot be blank");
    expectError(transferModule, (s) => s.denom_traces.push({ path: "transfer", base_denom: "uatom" }), "denom_traces[1].path: trace info must come in pairs");
    expectError(transferModule, (s) => s.denom_traces.push({ ...s.denom_traces[0] }), "denom_traces[1]: duplicated denomination trace with hash");
  });
});
