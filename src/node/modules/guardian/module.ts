import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { superKey } from "./keys.js";
import { guardianMessages } from "./messages.js";
import type { NodeModule } from "../nodeModule.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import { fieldText } from "../../../codec/fieldText.js";
import { guardianQueries } from "./queries.js";
import { SUPER_PREFIX } from "./keys.js";
import { valuesUnder } from "../shared/exportReads.js";

export const guardianModule: NodeModule = {
  name: "guardian",
  genesisType: "hubmod.guardian.GenesisState",
  queryService: "hubmod.guardian.Query",
  messages: guardianMessages,

  queries: guardianQueries,

  validateGenesis(state, ctx) {
    const seen = new Set<string>();
    ((state.supers ?? []) as ProtoMessage[]).forEach((item, i) => {
      const address = fieldText(item.address);
      decodeBech32Address(address, ctx.chain.bech32Prefix, `supers[${i}].address`);
      decodeBech32Address(fieldText(item.added_by), ctx.chain.bech32Prefix, `supers[${i}].added_by`);
      if (seen.has(address)) throw new Error(`supers[${i}].address: duplicate super ${address}`);
      seen.add(address);
    });
  },

  async exportGenesis(ctx) {
    return { supers: await valuesUnder(ctx.store, SUPER_PREFIX, ctx, "hubmod.guardian.Super") };
  },

  async initGenesis(state, ctx) {
    const superType = ctx.codec.type("hubmod.guardian.Super");
    for (const item of (state.supers ?? []) as ProtoMessage[]) {
      const address = decodeBech32Address(String(item.address), ctx.chain.bech32Prefix, "address");
      ctx.store.set(superKey(address), superType.encode(item).finish());
    }
  },

  devGenesis: (ctx: DevGenesisContext) => ({
    supers: [{ description: "genesis", account_type: "GENESIS", address: ctx.accounts[0]!.address, added_by: ctx.accounts[0]!.address }],
  }),
};
