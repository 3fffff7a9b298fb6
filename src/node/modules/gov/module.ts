import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { formatDec } from "../../../codec/decimal.js";
import type { NodeModule } from "../nodeModule.js";
import { aminoDuration } from "../shared/aminoParams.js";
import { decFromWire } from "../shared/decMath.js";
import { wireText } from "../shared/genesisChecks.js";
import { govDevGenesis } from "./devGenesis.js";
import { initGovGenesis, validateGovGenesis } from "./genesis.js";
import { exportGovGenesis } from "./genesisExport.js";
import { govQueries, readGovParams } from "./queries.js";
import { govMessages } from "./messages.js";
import { govEndBlock } from "./blocks.js";
import { updateGovParam } from "./params.js";

const decText = (value: unknown) => formatDec(decFromWire(wireText(value)));

/** x/gov: proposals, deposits, votes and tallies (layout in govKeys.ts). */
export const govModule: NodeModule = {
  name: "gov",
  genesisType: "core.gov.v1beta1.GenesisState",
  queryService: "core.gov.v1beta1.Query",
  queries: govQueries,
  validateGenesis: validateGovGenesis,
  initGenesis: initGovGenesis,
  exportGenesis: exportGovGenesis,
  messages: govMessages,
  endBlock: govEndBlock,

  /** The three gov param sets, each one amino JSON object (Durations in nanoseconds). */
  params: {
    subspace: "gov",
    async read(store, ctx) {
      const deposit = await readGovParams(store, "depositparams", ctx);
      const voting = await readGovParams(store, "votingparams", ctx);
      const tally = await readGovParams(store, "tallyparams", ctx);
      const coins = ((deposit.min_deposit ?? []) as ProtoMessage[]).map((c) => ({ denom: String(c.denom), amount: String(c.amount) }));
      return {
        depositparams: JSON.stringify({ min_deposit: coins, max_deposit_period: JSON.parse(aminoDuration(deposit.max_deposit_period)) as string }),
        votingparams: JSON.stringify({ voting_period: JSON.parse(aminoDuration(voting.voting_period)) as string }),
        tallyparams: JSON.stringify({ quorum: decText(tally.quorum), threshold: decText(tally.threshold), veto_threshold: decText(tally.veto_threshold) }),
      };
    },
    update: updateGovParam,
  },

  devGenesis: govDevGenesis,
};
