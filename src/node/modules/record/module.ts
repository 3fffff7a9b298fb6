import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { addRecord } from "./keeper.js";
import { recordMessages } from "./messages.js";
import type { NodeModule } from "../nodeModule.js";
import { recordDevGenesis } from "./devGenesis.js";
import { fieldText } from "../../../codec/fieldText.js";
import { recordQueries } from "./queries.js";
import { RECORD_PREFIX } from "./keys.js";
import { valuesUnder } from "../shared/exportReads.js";

/** The record module (irismod v1.3.1): records of content digests, by id (keys.ts). */
export const recordModule: NodeModule = {
  name: "record",
  genesisType: "extmod.record.GenesisState",
  queryService: "extmod.record.Query",
  messages: recordMessages,

  queries: recordQueries,

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

  /**
   * irismod's ExportGenesis: the records in key (id) order. As on the real chain, InitGenesis gives
   * them new ids (an id hashes the record with the count of records added before it).
   */
  async exportGenesis(ctx) {
    return { records: await valuesUnder(ctx.store, RECORD_PREFIX, ctx, "extmod.record.Record") };
  },

  async initGenesis(state, ctx) {
    for (const record of (state.records ?? []) as ProtoMessage[]) await addRecord(ctx.store, record, ctx);
  },

  devGenesis: recordDevGenesis,
};
