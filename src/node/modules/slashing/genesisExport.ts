import { bech32Prefixes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodedAt, decodedUnder, entriesUnder } from "../shared/exportReads.js";
import type { QueryContext } from "../nodeModule.js";
import { MISSED_BLOCK_PREFIX, PARAMS_KEY, SIGNING_INFO_PREFIX, SIGNING_INFO_TYPE, decodeMissed } from "./keys.js";

/** Consensus addresses are 20 bytes; a missed-block key ends in an 8-byte index. */
const CONSENSUS_ADDRESS_LENGTH = 20;

/**
 * ExportGenesis of x/slashing: params, every signing info and every stored entry of each
 * validator's missed-block array (the consensus public keys InitGenesis rebuilds from staking).
 */
export async function exportSlashingGenesis(ctx: QueryContext): Promise<ProtoMessage> {
  const consensus = bech32Prefixes(ctx.chain.bech32Prefix).consensus;
  const missed = new Map<string, ProtoMessage[]>();
  for (const [key, value] of await entriesUnder(ctx.store, MISSED_BLOCK_PREFIX)) {
    const address = encodeBech32Address(consensus, key.subarray(0, CONSENSUS_ADDRESS_LENGTH));
    const index = new DataView(key.buffer, key.byteOffset + CONSENSUS_ADDRESS_LENGTH, 8).getBigUint64(0, true);
    const list = missed.get(address) ?? [];
    list.push({ index: index.toString(), missed: decodeMissed(value) });
    missed.set(address, list);
  }
  return {
    params: await decodedAt(ctx.store, PARAMS_KEY, ctx, "core.slashing.v1beta1.Params"),
    signing_infos: (await decodedUnder(ctx.store, SIGNING_INFO_PREFIX, ctx, SIGNING_INFO_TYPE)).map(([key, info]) => ({
      address: encodeBech32Address(consensus, key),
      validator_signing_info: info,
    })),
    missed_blocks: [...missed].map(([address, missedBlocks]) => ({ address, missed_blocks: missedBlocks })),
  };
}
