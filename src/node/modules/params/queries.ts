import { invalidArgument } from "../../abci/queryError.js";
import type { QueryContext, QueryHandler } from "../nodeModule.js";
import { fieldText } from "../../../codec/fieldText.js";

/** The handlers of the params Query service, by method. */
export const paramsQueries: Record<string, QueryHandler> = {
  async Params(request, ctx) {
    const subspace = fieldText(request.subspace);
    const key = fieldText(request.key);
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
};

async function subspaceValues(subspace: string, ctx: QueryContext) {
  const owner = ctx.paramSubspaces.get(subspace);
  if (!owner) {
    throw invalidArgument(`unknown subspace "${subspace}": the known subspaces are ${[...ctx.paramSubspaces.keys()].join(", ")}`);
  }
  return owner.params.read(ctx.storeOf(owner.module), ctx);
}
