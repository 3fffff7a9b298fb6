import { sha256 } from "@noble/hashes/sha2.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import { concatBytes } from "../../store/keyEncoding.js";
import type { NodeModule } from "../nodeModule.js";
import { decodeHex } from "../shared/hexBytes.js";
import { recordDevGenesis } from "./devGenesis.js";
import { fieldText } from "../../../codec/fieldText.js";

/**
 * The record module (irismod v1.3.1). Store layout: 0x01 | record id (32 bytes) → Record.
 * A record id is SHA-256(the record's protobuf bytes | intra-block counter (4, big-endian));
 * genesis records take the counters 0, 1, ... in their order, as AddRecord does.
 */
const RECORD_PREFIX = Uint8Array.of(0x01);

export function recordId(recordBytes: Uint8Array, counter: number): Uint8Array {
  const counter32 = new Uint8Array(4);
  new DataView(counter32.buffer).setUint32(0, counter);
  return sha256(concatBytes(recordBytes, counter32));
}

export const recordModule: NodeModule = {
  name: "record",
  genesisType: "extmod.record.GenesisState",
  queryService: "extmod.record.Query",

  queries: {
    async Record(request, ctx) {
      const text = fieldText(request.record_id);
      const id = decodeHex(text);
      if (!id) throw invalidArgument(`invalid record ID ${text}`);
      const bytes = await ctx.store.get(concatBytes(RECORD_PREFIX, id));
      // The real handler answers an empty record here; a 404 makes a wrong id visible.
      if (!bytes) throw notFound(`record ${text} not found`);
      return { record: ctx.codec.type("extmod.record.Record").decode(bytes) };
    },
  },

  validateGenesis(state, ctx) {
    ((state.records ?? []) as ProtoMessage[]).forEach((record, i) => {
      const at = `records[${i}]`;
      decodeBech32Address(fieldText(record.creator), ctx.chain.bech32Prefix, `${at}.creator`);
      const contents = (record.contents ?? []) as ProtoMessage[];
      if (contents.length === 0) throw new Error(`${at}.contents: a record has at least one content`);
      contents.forEach((content, c) => {
        if (fieldText(content.digest) === "") throw new Error(`${at}.contents[${c}].digest: must not be empty`);
        if (fieldText(content.digest_algo) === "") throw new Error(`${at}.contents[${c}].digest_algo: must not be empty`);
      });
    });
  },

  async initGenesis(state, ctx) {
    const recordType = ctx.codec.type("extmod.record.Record");
    ((state.records ?? []) as ProtoMessage[]).forEach((record, i) => {
      const bytes = recordType.encode(record).finish();
      ctx.store.set(concatBytes(RECORD_PREFIX, recordId(bytes, i)), bytes);
    });
  },

  devGenesis: recordDevGenesis,
};
