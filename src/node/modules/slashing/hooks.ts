import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { ExecContext } from "../nodeModule.js";
import { toTimestamp } from "../shared/genesisChecks.js";
import { consensusAddressOf, getValidator } from "../staking/keeper.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import { bech32Prefixes } from "../../../codec/addresses.js";
import { SIGNING_INFO_TYPE, pubkeyKey, signingInfoKey } from "./keys.js";

/** The staking hooks of x/slashing (keeper/hooks.go, v0.41). */
export const slashingHooks = {
  /** AddPubkey: the consensus key by its address, for the signature handling. */
  async afterValidatorCreated(ctx: ExecContext, operator: Uint8Array): Promise<void> {
    const validator = (await getValidator(ctx.storeOf("staking"), ctx, operator))!;
    const any = ctx.codec
      .type("google.protobuf.Any")
      .encode(validator.consensus_pubkey as ProtoMessage)
      .finish();
    ctx.storeOf("slashing").set(pubkeyKey(consensusAddressOf(validator, ctx)), any);
  },

  /** A validator bonded for the first time gets its signing info, starting at this height. */
  async afterValidatorBonded(ctx: ExecContext, consensus: Uint8Array): Promise<void> {
    const store = ctx.storeOf("slashing");
    if (await store.get(signingInfoKey(consensus))) return;
    const info = {
      address: encodeBech32Address(bech32Prefixes(ctx.chain.bech32Prefix).consensus, consensus),
      start_height: String(ctx.height),
      index_offset: "0",
      jailed_until: toTimestamp(new Date(0)),
      tombstoned: false,
      missed_blocks_counter: "0",
    };
    store.set(signingInfoKey(consensus), ctx.codec.type(SIGNING_INFO_TYPE).encode(info).finish());
  },

  afterValidatorRemoved(ctx: ExecContext, consensus: Uint8Array): void {
    ctx.storeOf("slashing").delete(pubkeyKey(consensus));
  },
};
