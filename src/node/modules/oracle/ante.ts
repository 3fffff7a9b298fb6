import { fieldText } from "../../../codec/fieldText.js";
import type { AnteCheck } from "../nodeModule.js";
import { superKey } from "../guardian/keys.js";
import { accountBytes } from "../shared/msgAddresses.js";
import { oracleError } from "./errors.js";

/**
 * ValidateOracleAuthDecorator (irismod v1.3.1 oracle/keeper/ante.go, in the hub's ante chain):
 * only a guardian super (the hub's AuthKeeper.Authorized) creates feeds.
 */
export const oracleAnteCheck: AnteCheck = async (msgs, ctx) => {
  for (const { typeName, msg } of msgs) {
    if (typeName !== "extmod.oracle.MsgCreateFeed") continue;
    const creator = fieldText(msg.creator);
    if (!(await ctx.storeOf("guardian").get(superKey(accountBytes(creator, ctx))))) throw oracleError("unauthorized", creator);
  }
};
