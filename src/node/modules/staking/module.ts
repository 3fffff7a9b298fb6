import type { NodeModule } from "../nodeModule.js";
import { validateStakingGenesis, initStakingGenesis } from "./genesis.js";
import { stakingDevGenesis } from "./devGenesis.js";
import { exportStakingGenesis } from "./genesisExport.js";
import { stakingQueries } from "./queries.js";
import { stakingLegacyQueries } from "./legacyQueries.js";
import { consensusPublicKey, getStakingParams, getValidator, lastValidatorPowers } from "./keeper.js";
import { aminoDuration } from "../shared/aminoParams.js";
import { stakingMessages } from "./messages.js";
import { stakingEndBlock, trackHistoricalInfo } from "./blocks.js";
import { updateStakingParam } from "./params.js";
import { fieldText } from "../../../codec/fieldText.js";

/** x/staking: validators, delegations, unbondings, redelegations, pool and historical info (layout in stakingKeys.ts). */
export const stakingModule: NodeModule = {
  name: "staking",
  genesisType: "core.staking.v1beta1.GenesisState",
  queryService: "core.staking.v1beta1.Query",
  queries: stakingQueries,
  legacyQuerier: { service: "core.staking.v1beta1.LegacyQuerier", queries: stakingLegacyQueries },
  validateGenesis: validateStakingGenesis,
  initGenesis: initStakingGenesis,
  messages: stakingMessages,
  beginBlock: trackHistoricalInfo,
  endBlock: stakingEndBlock,

  params: {
    subspace: "staking",
    async read(store, ctx) {
      const params = await getStakingParams(store, ctx);
      return {
        UnbondingTime: aminoDuration(params.unbonding_time),
        MaxValidators: fieldText(params.max_validators, "0"),
        MaxEntries: fieldText(params.max_entries, "0"),
        HistoricalEntries: fieldText(params.historical_entries, "0"),
        BondDenom: JSON.stringify(fieldText(params.bond_denom)),
      };
    },
    update: updateStakingParam,
  },

  /** The consensus validator set: the last validator powers, highest first. */
  async validatorSet(store, ctx) {
    const out: Array<{ publicKey: Uint8Array; power: bigint }> = [];
    for (const { operator, power } of await lastValidatorPowers(store)) {
      const validator = await getValidator(store, ctx, operator);
      if (validator && power > 0n) out.push({ publicKey: consensusPublicKey(validator, ctx), power });
    }
    return out.sort((x, y) => (y.power > x.power ? 1 : y.power < x.power ? -1 : 0));
  },

  exportGenesis: exportStakingGenesis,

  devGenesis: stakingDevGenesis,
};
