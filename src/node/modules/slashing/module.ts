import { bech32Prefixes } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { NodeModule } from "../nodeModule.js";
import { aminoDec, aminoDuration, aminoInt64 } from "../shared/aminoParams.js";
import { addressAt, fractionAt } from "../shared/genesisChecks.js";
import { consensusAddressOf, decodeValidator } from "../staking/keeper.js";
import { VALIDATORS_PREFIX } from "../staking/keys.js";
import { PARAMS_KEY, SIGNING_INFO_TYPE, encodeMissed, missedBlockKey, pubkeyKey, signingInfoKey } from "./keys.js";
import { slashingDevGenesis } from "./devGenesis.js";
import { exportSlashingGenesis } from "./genesisExport.js";
import { slashingMessages } from "./messages.js";
import { slashingBeginBlock } from "./blocks.js";
import { updateSlashingParam } from "./params.js";
import { slashingQueries } from "./queries.js";
import { readParams } from "./params.js";
import { fieldText } from "../../../codec/fieldText.js";

const MINUTE_SECONDS = 60;

export const slashingModule: NodeModule = {
  name: "slashing",
  genesisType: "core.slashing.v1beta1.GenesisState",
  queryService: "core.slashing.v1beta1.Query",
  messages: slashingMessages,
  beginBlock: slashingBeginBlock,

  queries: slashingQueries,

  validateGenesis(state, ctx) {
    const params = (state.params ?? {}) as ProtoMessage;
    fractionAt(params.slash_fraction_downtime, "params.slash_fraction_downtime", "slashing fraction downtime");
    fractionAt(params.slash_fraction_double_sign, "params.slash_fraction_double_sign", "slashing fraction double sign");
    fractionAt(params.min_signed_per_window, "params.min_signed_per_window", "min signed per window");
    const jail = (params.downtime_jail_duration ?? {}) as { seconds?: unknown };
    if (Number(fieldText(jail.seconds, "0")) < MINUTE_SECONDS)
      throw new Error("params.downtime_jail_duration: downtime unjail duration must be at least 1 minute");
    const window = Number(fieldText(params.signed_blocks_window, "0"));
    if (window < 10) throw new Error(`params.signed_blocks_window: signed blocks window must be at least 10, is ${window}`);
    const consensus = bech32Prefixes(ctx.chain.bech32Prefix).consensus;
    ((state.signing_infos ?? []) as ProtoMessage[]).forEach((info, i) => addressAt(info.address, consensus, `signing_infos[${i}].address`));
    ((state.missed_blocks ?? []) as ProtoMessage[]).forEach((missed, i) => addressAt(missed.address, consensus, `missed_blocks[${i}].address`));
  },

  exportGenesis: exportSlashingGenesis,

  async initGenesis(state, ctx) {
    const { store, codec } = ctx;
    const consensus = bech32Prefixes(ctx.chain.bech32Prefix).consensus;
    const anyType = codec.type("google.protobuf.Any");
    for await (const [, value] of ctx.storeOf("staking").iterate(VALIDATORS_PREFIX)) {
      const validator = decodeValidator(value, ctx);
      store.set(pubkeyKey(consensusAddressOf(validator, ctx)), anyType.encode(validator.consensus_pubkey as ProtoMessage).finish());
    }
    const infoType = codec.type(SIGNING_INFO_TYPE);
    for (const info of (state.signing_infos ?? []) as ProtoMessage[]) {
      store.set(signingInfoKey(addressAt(info.address, consensus, "address")), infoType.encode(info.validator_signing_info ?? {}).finish());
    }
    for (const array of (state.missed_blocks ?? []) as ProtoMessage[]) {
      const address = addressAt(array.address, consensus, "address");
      for (const missed of (array.missed_blocks ?? []) as ProtoMessage[]) {
        store.set(missedBlockKey(address, BigInt(fieldText(missed.index, "0"))), encodeMissed(Boolean(missed.missed)));
      }
    }
    store.set(
      PARAMS_KEY,
      codec
        .type("core.slashing.v1beta1.Params")
        .encode(state.params ?? {})
        .finish(),
    );
  },

  params: {
    subspace: "slashing",
    async read(store, ctx) {
      const params = await readParams(store, ctx);
      return {
        SignedBlocksWindow: aminoInt64(params.signed_blocks_window),
        MinSignedPerWindow: aminoDec(params.min_signed_per_window),
        DowntimeJailDuration: aminoDuration(params.downtime_jail_duration),
        SlashFractionDoubleSign: aminoDec(params.slash_fraction_double_sign),
        SlashFractionDowntime: aminoDec(params.slash_fraction_downtime),
      };
    },
    update: updateSlashingParam,
  },

  devGenesis: slashingDevGenesis,
};
