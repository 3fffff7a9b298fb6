import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { invalidArgument, notFound } from "../../../abci/queryError.js";
import { paginate, type PageRequest } from "../../../abci/paginate.js";
import type { NodeModule } from "../../nodeModule.js";
import { aminoJson } from "../../shared/aminoParams.js";
import { formatHeight, isZeroHeight, parseHeight, selfHeight, type Height } from "../host/heights.js";
import {
  CLIENT_PARAMS_KEY,
  CLIENTS_PREFIX,
  clientMetadataKey,
  clientStateKey,
  consensusStateKey,
  consensusStatesPrefix,
  keyParts,
  keyText,
  NEXT_CLIENT_SEQUENCE_KEY,
  uint64Value,
} from "../host/hostPaths.js";
import { checkIdentifier, identifierParam } from "../host/identifiers.js";
import { ibcDevGenesis } from "../devGenesis.js";
import { checkConsensusStateType, clientTypeOf, latestHeightOf } from "./lightClients.js";
import { fieldText } from "../../../../codec/fieldText.js";
import { exportClientGenesis } from "../genesisExport.js";
import { clientMessages } from "./messages.js";
import { getClientState, getConsensusState, readClientParams, requestHeight } from "./store.js";

/**
 * ICS-02 light clients: the client part of the "ibc" app_state entry
 * (client_genesis) and ibc.core.client.v1.Query. Layout in ../host/hostPaths.ts.
 * This module also writes the development genesis of the whole "ibc" entry.
 */
export const ibcClientModule: NodeModule = {
  name: "ibc",
  genesisType: "ibc.core.types.v1.GenesisState",
  queryService: "ibc.core.client.v1.Query",

  queries: {
    async ClientState(request, ctx) {
      const clientId = identifierParam("client", request.client_id);
      const clientState = await getClientState(ctx.store, clientId, ctx);
      if (!clientState) throw notFound(`${clientId}: light client not found`);
      return { client_state: clientState, proof_height: selfHeight(ctx) };
    },
    async ClientStates(request, ctx) {
      const anyType = ctx.codec.type("google.protobuf.Any");
      // Keys under "clients": "/{client}/clientState", "/{client}/consensusStates/...", ...; only client states are listed.
      const page = await paginate(ctx.store, CLIENTS_PREFIX, request.pagination as PageRequest, (key, value) => {
        const parts = keyParts(key);
        return parts[parts.length - 1] === "clientState" ? { client_id: parts[1], client_state: anyType.decode(value) } : undefined;
      });
      return { client_states: page.items, pagination: page.pagination };
    },
    async ConsensusState(request, ctx) {
      const clientId = identifierParam("client", request.client_id);
      const height = requestHeight(request);
      let consensusState: ProtoMessage | undefined;
      if (request.latest_height) {
        const clientState = await getClientState(ctx.store, clientId, ctx);
        if (clientState) consensusState = await getConsensusState(ctx.store, clientId, latestHeightOf(clientState, ctx), ctx);
      } else {
        if (height.revision_height.isZero()) throw invalidArgument("consensus state height cannot be 0");
        consensusState = await getConsensusState(ctx.store, clientId, height, ctx);
      }
      if (!consensusState) throw notFound(`client-id: ${clientId}, height: ${formatHeight(height)}: consensus state not found`);
      return { consensus_state: consensusState, proof_height: selfHeight(ctx) };
    },
    async ConsensusStates(request, ctx) {
      const clientId = identifierParam("client", request.client_id);
      const anyType = ctx.codec.type("google.protobuf.Any");
      // Metadata such as "{height}/processedTime" shares the prefix; it is skipped and not counted.
      const page = await paginate(ctx.store, consensusStatesPrefix(clientId), request.pagination as PageRequest, (key, value) => {
        const text = keyText(key);
        return text.includes("/") ? undefined : { height: parseHeight(text), consensus_state: anyType.decode(value) };
      });
      return { consensus_states: page.items, pagination: page.pagination };
    },
    async ClientParams(_request, ctx) {
      return { params: await readClientParams(ctx.store, ctx) };
    },
  },

  messages: clientMessages,

  validateGenesis(state) {
    const genesis = (state.client_genesis ?? {}) as ProtoMessage;
    const where = "client_genesis";
    const allowed = ((genesis.params as ProtoMessage | undefined)?.allowed_clients ?? []) as string[];
    allowed.forEach((type, i) => {
      if (type.trim() === "") throw new Error(`${where}.params.allowed_clients[${i}]: client type cannot be blank`);
    });
    if (genesis.create_localhost) throw new Error(`${where}.create_localhost: the localhost client is not supported by this node; set it to false`);
    const clientTypes = new Map<string, string>();
    let maxSequence = -1n;
    ((genesis.clients ?? []) as ProtoMessage[]).forEach((client, i) => {
      const field = `${where}.clients[${i}]`;
      const clientId = checkIdentifier("client", client.client_id, `${field}.client_id`);
      if (clientTypes.has(clientId)) throw new Error(`${field}.client_id: duplicate client ${clientId}`);
      const type = clientTypeOf((client.client_state ?? {}) as ProtoMessage, `${field}.client_state`);
      if (!allowed.includes(type)) throw new Error(`${field}.client_state: client type ${type} is not allowed by ${where}.params.allowed_clients`);
      const match = /^(.+)-(\d+)$/.exec(clientId);
      if (!match || match[1] !== type) throw new Error(`${field}.client_id: a ${type} client id has the form ${type}-{N}, got ${clientId}`);
      if (BigInt(match[2]!) > maxSequence) maxSequence = BigInt(match[2]!);
      clientTypes.set(clientId, type);
    });
    ((genesis.clients_consensus ?? []) as ProtoMessage[]).forEach((entry, i) => {
      const field = `${where}.clients_consensus[${i}]`;
      if (!clientTypes.has(fieldText(entry.client_id)))
        throw new Error(`${field}.client_id: ${fieldText(entry.client_id)} is not a client of ${where}.clients`);
      const seen = new Set<string>();
      ((entry.consensus_states ?? []) as ProtoMessage[]).forEach((item, j) => {
        const height = (item.height ?? {}) as Height;
        if (isZeroHeight(height)) throw new Error(`${field}.consensus_states[${j}].height: consensus state height cannot be zero`);
        if (seen.has(formatHeight(height))) throw new Error(`${field}.consensus_states[${j}].height: duplicate height ${formatHeight(height)}`);
        seen.add(formatHeight(height));
        checkConsensusStateType((item.consensus_state ?? {}) as ProtoMessage, `${field}.consensus_states[${j}].consensus_state`);
      });
    });
    ((genesis.clients_metadata ?? []) as ProtoMessage[]).forEach((entry, i) => {
      const field = `${where}.clients_metadata[${i}]`;
      if (!clientTypes.has(fieldText(entry.client_id)))
        throw new Error(`${field}.client_id: ${fieldText(entry.client_id)} is not a client of ${where}.clients`);
      ((entry.client_metadata ?? []) as ProtoMessage[]).forEach((item, j) => {
        if (((item.key as Uint8Array | undefined)?.length ?? 0) === 0) throw new Error(`${field}.client_metadata[${j}].key: metadata key cannot be empty`);
        if (((item.value as Uint8Array | undefined)?.length ?? 0) === 0)
          throw new Error(`${field}.client_metadata[${j}].value: metadata value cannot be empty`);
      });
    });
    const next = BigInt(fieldText(genesis.next_client_sequence, "0"));
    if (maxSequence >= 0n && next <= maxSequence) {
      throw new Error(`${where}.next_client_sequence: ${next} must be greater than the largest sequence of the client ids (${maxSequence})`);
    }
  },

  exportGenesis: exportClientGenesis,

  async initGenesis(state, ctx) {
    const genesis = (state.client_genesis ?? {}) as ProtoMessage;
    const anyType = ctx.codec.type("google.protobuf.Any");
    for (const client of (genesis.clients ?? []) as ProtoMessage[]) {
      ctx.store.set(clientStateKey(String(client.client_id)), anyType.encode(client.client_state as ProtoMessage).finish());
    }
    for (const entry of (genesis.clients_consensus ?? []) as ProtoMessage[]) {
      for (const item of (entry.consensus_states ?? []) as ProtoMessage[]) {
        ctx.store.set(consensusStateKey(String(entry.client_id), item.height as Height), anyType.encode(item.consensus_state as ProtoMessage).finish());
      }
    }
    for (const entry of (genesis.clients_metadata ?? []) as ProtoMessage[]) {
      for (const item of (entry.client_metadata ?? []) as ProtoMessage[]) {
        ctx.store.set(clientMetadataKey(String(entry.client_id), item.key as Uint8Array), item.value as Uint8Array);
      }
    }
    ctx.store.set(
      CLIENT_PARAMS_KEY,
      ctx.codec
        .type("ibc.core.client.v1.Params")
        .encode(genesis.params ?? {})
        .finish(),
    );
    ctx.store.set(NEXT_CLIENT_SEQUENCE_KEY, uint64Value(BigInt(fieldText(genesis.next_client_sequence, "0"))));
  },

  params: {
    subspace: "ibc",
    async read(store, ctx) {
      const params = await readClientParams(store, ctx);
      return { AllowedClients: aminoJson(params.allowed_clients ?? []) };
    },
  },

  devGenesis: ibcDevGenesis,
};
