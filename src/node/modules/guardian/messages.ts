import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { fieldText } from "../../../codec/fieldText.js";
import { sdkError } from "../../abci/txError.js";
import type { ExecContext, MsgRoute } from "../nodeModule.js";
import { accountBytes, checkAccountField } from "../shared/msgAddresses.js";
import { guardianError } from "./errors.js";
import { GENESIS, ORDINARY, superKey } from "./keys.js";
import { emitModuleMessage } from "../shared/msgEvents.js";

const MAX_DESCRIPTION_BYTES = 70;
const SUPER = "hubmod.guardian.Super";

/** The hub's guardian Msgs (irishub v1.0.0 modules/guardian): only a GENESIS super adds or deletes supers. */
export const guardianMessages: Record<string, MsgRoute> = {
  "hubmod.guardian.MsgAddSuper": {
    action: "add_super",
    signers: (msg) => [fieldText(msg.added_by)],
    validateBasic(msg, chain) {
      const description = fieldText(msg.description);
      if (description.length === 0) throw sdkError("invalidRequest", "description missing");
      checkAccountField(msg.address, chain.bech32Prefix, "invalid address");
      checkAccountField(msg.added_by, chain.bech32Prefix, "invalid operator address");
      const bytes = new TextEncoder().encode(description).length;
      // sic: the real message says "website"
      if (bytes > MAX_DESCRIPTION_BYTES) throw sdkError("invalidRequest", `invalid website length; got: ${bytes}, max: ${MAX_DESCRIPTION_BYTES}`);
    },
    async handler(msg, ctx) {
      const addedBy = fieldText(msg.added_by);
      const address = fieldText(msg.address);
      await requireGenesisSuper(ctx, addedBy);
      if (await superOf(ctx, address)) throw guardianError("superExists", address);
      const added = { description: fieldText(msg.description), account_type: ORDINARY, address, added_by: addedBy };
      ctx.storeOf("guardian").set(superKey(accountBytes(address, ctx)), ctx.codec.type(SUPER).encode(added).finish());
      emit(ctx, addedBy, "add_super", [
        ["address", address],
        ["added_by", addedBy],
      ]);
      return {};
    },
  },
  "hubmod.guardian.MsgDeleteSuper": {
    action: "delete_super",
    signers: (msg) => [fieldText(msg.deleted_by)],
    validateBasic(msg, chain) {
      checkAccountField(msg.address, chain.bech32Prefix, "invalid address");
      checkAccountField(msg.deleted_by, chain.bech32Prefix, "invalid operator address");
    },
    async handler(msg, ctx) {
      const deletedBy = fieldText(msg.deleted_by);
      const address = fieldText(msg.address);
      await requireGenesisSuper(ctx, deletedBy);
      const existing = await superOf(ctx, address);
      if (!existing) throw guardianError("unknownSuper", address);
      if (Number(existing.account_type ?? GENESIS) === GENESIS) throw guardianError("deleteGenesisSuper", address);
      ctx.storeOf("guardian").delete(superKey(accountBytes(address, ctx)));
      emit(ctx, deletedBy, "delete_super", [
        ["address", address],
        ["deleted_by", deletedBy],
      ]);
      return {};
    },
  },
};

async function superOf(ctx: ExecContext, address: string): Promise<ProtoMessage | undefined> {
  const bytes = await ctx.storeOf("guardian").get(superKey(accountBytes(address, ctx)));
  return bytes ? ctx.codec.type(SUPER).decode(bytes) : undefined;
}

async function requireGenesisSuper(ctx: ExecContext, operator: string): Promise<void> {
  const found = await superOf(ctx, operator);
  if (!found || Number(found.account_type ?? GENESIS) !== GENESIS) throw guardianError("unknownOperator", operator);
}

/** The guardian msg server emits message{module, sender} before its own event (the opposite of irismod's order). */
function emit(ctx: ExecContext, sender: string, type: string, attributes: Array<[string, string]>): void {
  emitModuleMessage(ctx, "guardian", sender);
  ctx.emit({ type, attributes: attributes.map(([key, value]) => ({ key, value })) });
}
