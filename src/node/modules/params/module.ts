import { invalidArgument } from "../../abci/queryError.js";
import type { NodeModule, QueryContext } from "../nodeModule.js";
import { NO_GENESIS_STATE } from "../shared/noGenesisState.js";

/**
 * x/params: one parameter of any module's subspace, as its amino JSON text.
 * It stores nothing itself: each module keeps its parameters in its own store
 * and describes them through its `params` member, read here at the queried height.
 */
export const paramsModule: NodeModule = {
  name: "params",
  genesisType: NO_GENESIS_STATE,
  queryService: "core.params.v1beta1.Query",

  queries: {
    async Params(request, ctx) {
      const subspace = String(request.subspace ?? "");
      const key = String(request.key ?? "");
      if (subspace === "" || key === "") {
        throw invalidArgument("subspace and key are both required, e.g. ?subspace=auth&key=MaxMemoCharacters");
      }
      const values = await subspaceValues(subspace, ctx);
      const value = values[key];
      if (value === undefined) {
        throw invalidArgument(`unknown key "${key}" in subspace ${subspace}: its keys are ${Object.keys(values).join(", ")}`);
      }
      return { param: { subspace, key, value } };
    },
  },

  validateGenesis() {},

  async initGenesis() {},

  // The real genesis carries "params": null.
  devGenesis: () => null,
};

async function subspaceValues(subspace: string, ctx: QueryContext) {
  const owner = ctx.paramSubspaces.get(subspace);
  if (!owner) {
    throw invalidArgument(`unknown subspace "${subspace}": the known subspaces are ${[...ctx.paramSubspaces.keys()].join(", ")}`);
  }
  return owner.params.read(ctx.storeOf(owner.module), ctx);
}
