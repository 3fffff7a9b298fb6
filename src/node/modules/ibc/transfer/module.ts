import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { invalidArgument, notFound } from "../../../abci/queryError.js";
import { paginate, type PageRequest } from "../../../abci/paginate.js";
import { concatBytes } from "../../../store/keyEncoding.js";
import { utf8 } from "../../../store/moduleStore.js";
import type { NodeModule } from "../../nodeModule.js";
import { DENOM_TRACE_PREFIX, PARAMS_KEY, PORT_KEY, readTransferParams } from "./store.js";
import { transferMessages } from "./messages.js";
import { aminoBool } from "../../shared/aminoParams.js";
import { checkDenomTrace, denomTraceHash, fullDenomPath, parseHexHash, upperHex } from "./denomTrace.js";
import { checkIdentifier } from "../host/identifiers.js";
import { fieldText } from "../../../../codec/fieldText.js";
import { decodedAt, valuesUnder } from "../../shared/exportReads.js";

export const transferModule: NodeModule = {
  name: "transfer",
  genesisType: "ibc.applications.transfer.v1.GenesisState",
  queryService: "ibc.applications.transfer.v1.Query",

  queries: {
    async DenomTrace(request, ctx) {
      const hashText = fieldText(request.hash);
      let hash: Uint8Array;
      try {
        hash = parseHexHash(hashText);
      } catch (err) {
        throw invalidArgument(`invalid denom trace hash ${hashText}, ${(err as Error).message}`);
      }
      const bytes = await ctx.store.get(concatBytes(DENOM_TRACE_PREFIX, hash));
      if (!bytes) throw notFound(`${hashText}: denomination trace not found`);
      return { denom_trace: ctx.codec.type("ibc.applications.transfer.v1.DenomTrace").decode(bytes) };
    },
    async DenomTraces(request, ctx) {
      const traceType = ctx.codec.type("ibc.applications.transfer.v1.DenomTrace");
      const page = await paginate(
        ctx.store,
        DENOM_TRACE_PREFIX,
        request.pagination as PageRequest,
        (_key, value) => traceType.decode(value) as unknown as ProtoMessage,
      );
      // The page comes in hash order; the real query sorts it by full denom path.
      const traces = page.items.sort((a, b) => (fullDenomPath(a) < fullDenomPath(b) ? -1 : fullDenomPath(a) > fullDenomPath(b) ? 1 : 0));
      return { denom_traces: traces, pagination: page.pagination };
    },
    async Params(_request, ctx) {
      return { params: await readTransferParams(ctx.store, ctx) };
    },
  },

  messages: transferMessages,

  validateGenesis(state) {
    checkIdentifier("port", state.port_id, "port_id");
    const seen = new Set<string>();
    ((state.denom_traces ?? []) as ProtoMessage[]).forEach((trace, i) => {
      const hash = upperHex(denomTraceHash(trace));
      if (seen.has(hash)) throw new Error(`denom_traces[${i}]: duplicated denomination trace with hash ${hash}`);
      seen.add(hash);
      checkDenomTrace(trace, `denom_traces[${i}]`);
    });
  },

  async exportGenesis(ctx) {
    const port = await ctx.store.get(PORT_KEY);
    return {
      port_id: port ? new TextDecoder().decode(port) : "",
      denom_traces: await valuesUnder(ctx.store, DENOM_TRACE_PREFIX, ctx, "ibc.applications.transfer.v1.DenomTrace"),
      params: await decodedAt(ctx.store, PARAMS_KEY, ctx, "ibc.applications.transfer.v1.Params"),
    };
  },

  async initGenesis(state, ctx) {
    ctx.store.set(
      PARAMS_KEY,
      ctx.codec
        .type("ibc.applications.transfer.v1.Params")
        .encode(state.params ?? {})
        .finish(),
    );
    ctx.store.set(PORT_KEY, utf8(String(state.port_id)));
    const traceType = ctx.codec.type("ibc.applications.transfer.v1.DenomTrace");
    for (const trace of (state.denom_traces ?? []) as ProtoMessage[]) {
      ctx.store.set(concatBytes(DENOM_TRACE_PREFIX, denomTraceHash(trace)), traceType.encode(trace).finish());
    }
  },

  params: {
    subspace: "transfer",
    async read(store, ctx) {
      const params = await readTransferParams(store, ctx);
      return { SendEnabled: aminoBool(params.send_enabled), ReceiveEnabled: aminoBool(params.receive_enabled) };
    },
  },

  devGenesis: () => ({
    port_id: "transfer",
    // vouchers of "uother" received over channel-0 (see the ibc development genesis)
    denom_traces: [{ path: "transfer/channel-0", base_denom: "uother" }],
    params: { send_enabled: true, receive_enabled: true },
  }),
};
