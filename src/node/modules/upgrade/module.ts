import Long from "long";
import { notFound } from "../../abci/queryError.js";
import type { NodeModule } from "../nodeModule.js";
import { NO_GENESIS_STATE } from "../shared/noGenesisState.js";
import { doneKey, PLAN_KEY, upgradedConsStateKey } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import { applyDuePlan } from "./keeper.js";

/** x/upgrade: the scheduled plan, applied plans and the consensus state promised to IBC counterparties. Layout in upgradeKeys.ts. */
export const upgradeModule: NodeModule = {
  name: "upgrade",
  genesisType: NO_GENESIS_STATE,
  queryService: "core.upgrade.v1beta1.Query",
  beginBlock: applyDuePlan,

  queries: {
    async CurrentPlan(_request, ctx) {
      const bytes = await ctx.store.get(PLAN_KEY);
      // No plan: the real answer is an empty response, {"plan": null}.
      return bytes ? { plan: ctx.codec.type("core.upgrade.v1beta1.Plan").decode(bytes) } : {};
    },
    async AppliedPlan(request, ctx) {
      const bytes = await ctx.store.get(doneKey(fieldText(request.name)));
      if (!bytes) return { height: Long.ZERO };
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return { height: Long.fromString(view.getBigUint64(0).toString()) };
    },
    async UpgradedConsensusState(request, ctx) {
      const lastHeight = BigInt(fieldText(request.last_height, "0"));
      const bytes = await ctx.store.get(upgradedConsStateKey(lastHeight));
      // The real keeper fails with ErrInvalidRequest here; the state is missing, so we say NotFound.
      if (!bytes) throw notFound(`upgraded consensus state not found in store for height: ${lastHeight}`);
      return { upgraded_consensus_state: ctx.codec.type("google.protobuf.Any").decode(bytes) };
    },
  },

  validateGenesis() {},

  // x/upgrade exports an empty state (a plan is not carried through a genesis).
  exportGenesis: async () => ({}),

  async initGenesis() {},

  // The real genesis carries "upgrade": {}.
  devGenesis: () => ({}),
};
