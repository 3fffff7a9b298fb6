import type { NodeModule } from "../nodeModule.js";
import { aminoDec } from "../shared/aminoParams.js";
import { distributionDevGenesis } from "./devGenesis.js";
import { initDistributionGenesis, validateDistributionGenesis } from "./genesis.js";
import { exportDistributionGenesis } from "./genesisExport.js";
import { distributionQueries, readDistributionParams } from "./queries.js";
import { distributionMessages } from "./messages.js";
import { distributionBeginBlock } from "./allocation.js";
import { updateDistributionParam } from "./params.js";

/** x/distribution: fee pool, validator rewards and commission, delegator rewards (F1), withdraw addresses (layout in distributionKeys.ts). */
export const distributionModule: NodeModule = {
  name: "distribution",
  genesisType: "core.distribution.v1beta1.GenesisState",
  queryService: "core.distribution.v1beta1.Query",
  queries: distributionQueries,
  validateGenesis: validateDistributionGenesis,
  initGenesis: initDistributionGenesis,
  exportGenesis: exportDistributionGenesis,
  messages: distributionMessages,
  beginBlock: distributionBeginBlock,

  params: {
    subspace: "distribution",
    async read(store, ctx) {
      const params = await readDistributionParams(store, ctx);
      return {
        communitytax: aminoDec(params.community_tax),
        baseproposerreward: aminoDec(params.base_proposer_reward),
        bonusproposerreward: aminoDec(params.bonus_proposer_reward),
        withdrawaddrenabled: String(Boolean(params.withdraw_addr_enabled)),
      };
    },
    update: updateDistributionParam,
  },

  devGenesis: distributionDevGenesis,
};
