import { sha256 } from "@noble/hashes/sha2.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { fieldText } from "../../../codec/fieldText.js";
import { sdkError } from "../../abci/txError.js";
import type { MsgRoute } from "../nodeModule.js";
import { checkAccountField } from "../shared/msgAddresses.js";
import { addRecord } from "./keeper.js";
import { emitMsgEvent } from "../shared/msgEvents.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** The record module's Msg (irismod v1.3.1 modules/record): a record of content digests, kept under a derived id. */
export const recordMessages: Record<string, MsgRoute> = {
  "extmod.record.MsgCreateRecord": {
    action: "create_record",
    signers: (msg) => [fieldText(msg.creator)],
    validateBasic(msg, chain) {
      const contents = (msg.contents ?? []) as ProtoMessage[];
      if (contents.length === 0) throw sdkError("invalidRequest", "contents missing");
      checkAccountField(msg.creator, chain.bech32Prefix, "invalid creator address");
      contents.forEach((content, i) => {
        if (fieldText(content.digest) === "") throw sdkError("invalidRequest", `content[${i}] digest missing`);
        if (fieldText(content.digest_algo) === "") throw sdkError("invalidRequest", `content[${i}] digest algo missing`);
      });
    },
    async handler(msg, ctx) {
      const creator = fieldText(msg.creator);
      // tx_hash is the hash of the transaction's bytes as broadcast (the hash the node reports for it)
      const txHash = hex(sha256(ctx.txBytes ?? new Uint8Array())).toUpperCase();
      const id = hex(await addRecord(ctx.storeOf("record"), { tx_hash: txHash, contents: msg.contents ?? [], creator }, ctx));
      emitMsgEvent(ctx, "record", creator, "create_record", { creator, record_id: id });
      return { id };
    },
  },
};
