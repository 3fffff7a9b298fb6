import { bech32Prefixes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { ExecContext } from "../nodeModule.js";
import { decFromWire, decMul } from "../shared/decMath.js";
import { toTimestamp } from "../shared/genesisChecks.js";
import { durationMs } from "../shared/goTime.js";
import { getValidatorByConsensusAddress } from "../staking/keeper.js";
import { jail, slash } from "../staking/slash.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { PARAMS_KEY, SIGNING_INFO_TYPE, decodeMissed, encodeMissed, missedBlockKey, missedBlocksPrefix, pubkeyKey, signingInfoKey } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";

/**
 * BeginBlocker of x/slashing (v0.41 HandleValidatorSignature): each validator
 * of the last commit moves its window index; a missed block counts; a
 * validator past the window that missed more than allowed is slashed and jailed.
 */
export async function slashingBeginBlock(ctx: ExecContext): Promise<void> {
  const store = ctx.storeOf("slashing");
  const paramsBytes = await store.get(PARAMS_KEY);
  const params = paramsBytes ? (ctx.codec.type("core.slashing.v1beta1.Params").decode(paramsBytes) as unknown as ProtoMessage) : {};
  const window = BigInt(fieldText(params.signed_blocks_window, "0"));
  // MinSignedPerWindow: (fraction × window).RoundInt64(), rounded half to even
  const minSigned = decMul(decFromWire(params.min_signed_per_window as string) * window, 1n);
  const infoType = ctx.codec.type(SIGNING_INFO_TYPE);
  const consensusPrefix = bech32Prefixes(ctx.chain.bech32Prefix).consensus;
  for (const vote of ctx.block?.lastCommit ?? []) {
    const consensus = encodeBech32Address(consensusPrefix, vote.address);
    if (!(await store.get(pubkeyKey(vote.address)))) throw new Error(`Validator consensus-address ${consensus} not found`);
    const infoBytes = await store.get(signingInfoKey(vote.address));
    if (!infoBytes) throw new Error(`Expected signing info for validator ${consensus} but not found`);
    const info = infoType.decode(infoBytes) as unknown as ProtoMessage;
    const offset = BigInt(fieldText(info.index_offset, "0"));
    const index = window > 0n ? offset % window : 0n;
    info.index_offset = (offset + 1n).toString();
    let missedCount = BigInt(fieldText(info.missed_blocks_counter, "0"));
    const previous = decodeMissed(await store.get(missedBlockKey(vote.address, index)));
    const missed = !vote.signed;
    if (!previous && missed) {
      store.set(missedBlockKey(vote.address, index), encodeMissed(true));
      missedCount++;
    } else if (previous && !missed) {
      store.set(missedBlockKey(vote.address, index), encodeMissed(false));
      missedCount--;
    }
    info.missed_blocks_counter = missedCount.toString();
    const height = BigInt(ctx.height);
    if (missed) {
      ctx.emit({
        type: "liveness",
        attributes: [
          { key: "address", value: consensus },
          { key: "missed_blocks", value: missedCount.toString() },
          { key: "height", value: height.toString() },
        ],
      });
    }
    const minHeight = BigInt(fieldText(info.start_height, "0")) + window;
    if (height > minHeight && missedCount > window - minSigned) {
      const validator = await getValidatorByConsensusAddress(ctx.storeOf("staking"), ctx, vote.address);
      if (validator && !validator.jailed) {
        ctx.emit({
          type: "slash",
          attributes: [
            { key: "address", value: consensus },
            { key: "power", value: vote.power.toString() },
            { key: "reason", value: "missing_signature" },
            { key: "jailed", value: consensus },
          ],
        });
        // the infraction happened at the height whose validator set signed this commit
        await slash(ctx, vote.address, ctx.height - 2, vote.power, decFromWire(params.slash_fraction_downtime as string));
        await jail(ctx, vote.address);
        const jailMs = durationMs(params.downtime_jail_duration);
        info.jailed_until = toTimestamp(new Date(ctx.time.getTime() + jailMs));
        info.missed_blocks_counter = "0";
        info.index_offset = "0";
        const keys: Uint8Array[] = [];
        for await (const [key] of store.iterate(missedBlocksPrefix(vote.address))) keys.push(concatBytes(missedBlocksPrefix(vote.address), key));
        keys.forEach((key) => store.delete(key));
      }
    }
    store.set(signingInfoKey(vote.address), infoType.encode(info).finish());
  }
}
