import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { notFound } from "../../../abci/queryError.js";
import { paginate, type PageRequest } from "../../../abci/paginate.js";
import type { NodeModule, QueryContext } from "../../nodeModule.js";
import { getClientState, getConsensusState, requestHeight } from "../client/store.js";
import { getConnection } from "./store.js";
import { selfHeight } from "../host/heights.js";
import { clientConnectionsKey, connectionKey, CONNECTIONS_PREFIX, keyParts, NEXT_CONNECTION_SEQUENCE_KEY, uint64Value } from "../host/hostPaths.js";
import { checkIdentifier, identifierParam } from "../host/identifiers.js";
import { fieldText } from "../../../../codec/fieldText.js";
import { exportConnectionGenesis } from "../genesisExport.js";
import { connectionMessages } from "./messages.js";

/** ICS-03 connections: connection_genesis of the "ibc" app_state entry and ibc.core.connection.v1.Query. Layout in ../host/hostPaths.ts. */
export const ibcConnectionModule: NodeModule = {
  name: "ibc",
  genesisType: "ibc.core.types.v1.GenesisState",
  queryService: "ibc.core.connection.v1.Query",

  queries: {
    async Connection(request, ctx) {
      const connectionId = identifierParam("connection", request.connection_id);
      const connection = await getConnection(ctx.store, connectionId, ctx);
      if (!connection) throw notFound(`${connectionId}: connection not found`);
      return { connection, proof_height: selfHeight(ctx) };
    },
    async Connections(request, ctx) {
      const endType = ctx.codec.type("ibc.core.connection.v1.ConnectionEnd");
      // Keys under "connections" are "/{connection}".
      const page = await paginate(ctx.store, CONNECTIONS_PREFIX, request.pagination as PageRequest, (key, value) => ({
        id: keyParts(key)[1],
        ...(endType.decode(value) as unknown as ProtoMessage),
      }));
      return { connections: page.items, pagination: page.pagination, height: selfHeight(ctx) };
    },
    async ClientConnections(request, ctx) {
      const clientId = identifierParam("client", request.client_id);
      const bytes = await ctx.store.get(clientConnectionsKey(clientId));
      if (!bytes) throw notFound(`${clientId}: light client connection paths not found`);
      const paths = ctx.codec.type("ibc.core.connection.v1.ClientPaths").decode(bytes) as unknown as ProtoMessage;
      return { connection_paths: paths.paths, proof_height: selfHeight(ctx) };
    },
    async ConnectionClientState(request, ctx) {
      const connection = await existingConnection(request.connection_id, ctx);
      const clientId = String(connection.client_id);
      const clientState = await getClientState(ctx.store, clientId, ctx);
      if (!clientState) throw notFound(`client-id: ${clientId}: light client not found`);
      return { identified_client_state: { client_id: clientId, client_state: clientState }, proof_height: selfHeight(ctx) };
    },
    async ConnectionConsensusState(request, ctx) {
      const connection = await existingConnection(request.connection_id, ctx);
      const clientId = String(connection.client_id);
      const consensusState = await getConsensusState(ctx.store, clientId, requestHeight(request), ctx);
      if (!consensusState) throw notFound(`client-id: ${clientId}: consensus state not found`);
      return { consensus_state: consensusState, client_id: clientId, proof_height: selfHeight(ctx) };
    },
  },

  messages: connectionMessages,

  validateGenesis(state) {
    const genesis = (state.connection_genesis ?? {}) as ProtoMessage;
    const where = "connection_genesis";
    const connections = new Set<string>();
    let maxSequence = -1n;
    ((genesis.connections ?? []) as ProtoMessage[]).forEach((connection, i) => {
      const field = `${where}.connections[${i}]`;
      const id = checkIdentifier("connection", connection.id, `${field}.id`);
      if (connections.has(id)) throw new Error(`${field}.id: duplicate connection ${id}`);
      const match = /^connection-(\d+)$/.exec(id);
      if (!match) throw new Error(`${field}.id: a connection id has the form connection-{N}, got ${id}`);
      if (BigInt(match[1]!) > maxSequence) maxSequence = BigInt(match[1]!);
      connections.add(id);
      checkIdentifier("client", connection.client_id, `${field}.client_id`);
      const versions = (connection.versions ?? []) as ProtoMessage[];
      if (versions.length === 0) throw new Error(`${field}.versions: empty connection versions`);
      versions.forEach((version, j) => {
        if (fieldText(version.identifier).trim() === "") throw new Error(`${field}.versions[${j}].identifier: version identifier cannot be blank`);
      });
      const counterparty = (connection.counterparty ?? {}) as ProtoMessage;
      if (counterparty.connection_id) checkIdentifier("connection", counterparty.connection_id, `${field}.counterparty.connection_id`);
      checkIdentifier("client", counterparty.client_id, `${field}.counterparty.client_id`);
      const prefix = (counterparty.prefix as ProtoMessage | undefined)?.key_prefix as Uint8Array | undefined;
      if (!prefix || prefix.length === 0) throw new Error(`${field}.counterparty.prefix.key_prefix: counterparty prefix cannot be empty`);
    });
    ((genesis.client_connection_paths ?? []) as ProtoMessage[]).forEach((entry, i) => {
      const field = `${where}.client_connection_paths[${i}]`;
      checkIdentifier("client", entry.client_id, `${field}.client_id`);
      ((entry.paths ?? []) as string[]).forEach((path, j) => {
        if (!connections.has(path)) throw new Error(`${field}.paths[${j}]: ${path} is not a connection of ${where}.connections`);
      });
    });
    const next = BigInt(fieldText(genesis.next_connection_sequence, "0"));
    if (maxSequence >= 0n && next <= maxSequence) {
      throw new Error(`${where}.next_connection_sequence: ${next} must be greater than the largest sequence of the connection ids (${maxSequence})`);
    }
  },

  exportGenesis: exportConnectionGenesis,

  async initGenesis(state, ctx) {
    const genesis = (state.connection_genesis ?? {}) as ProtoMessage;
    const endType = ctx.codec.type("ibc.core.connection.v1.ConnectionEnd");
    for (const connection of (genesis.connections ?? []) as ProtoMessage[]) {
      const { id, ...end } = connection;
      ctx.store.set(connectionKey(String(id)), endType.encode(end).finish());
    }
    const pathsType = ctx.codec.type("ibc.core.connection.v1.ClientPaths");
    for (const entry of (genesis.client_connection_paths ?? []) as ProtoMessage[]) {
      ctx.store.set(clientConnectionsKey(String(entry.client_id)), pathsType.encode({ paths: entry.paths ?? [] }).finish());
    }
    ctx.store.set(NEXT_CONNECTION_SEQUENCE_KEY, uint64Value(BigInt(fieldText(genesis.next_connection_sequence, "0"))));
  },
};

async function existingConnection(value: unknown, ctx: QueryContext): Promise<ProtoMessage> {
  const connectionId = identifierParam("connection", value);
  const connection = await getConnection(ctx.store, connectionId, ctx);
  if (!connection) throw notFound(`connection-id: ${connectionId}: connection not found`);
  return connection;
}
