import type { NodeModule } from "../nodeModule.js";
import { NO_GENESIS_STATE } from "../shared/noGenesisState.js";
import { paramsQueries } from "./queries.js";

/**
 * x/params: one parameter of any module's subspace, as its amino JSON text.
 * It stores nothing itself: each module keeps its parameters in its own store
 * and describes them through its `params` member, read here at the queried height.
 */
export const paramsModule: NodeModule = {
  name: "params",
  genesisType: NO_GENESIS_STATE,
  queryService: "core.params.v1beta1.Query",

  queries: paramsQueries,

  validateGenesis() {},

  // The real genesis carries "params": null; the parameters are each module's.
  exportGenesis: async () => null,

  async initGenesis() {},

  // The real genesis carries "params": null.
  devGenesis: () => null,
};
