import { decFromWire } from "../../../codec/decimal.js";
import { notFound } from "../../abci/queryError.js";
import { accountKey } from "../auth/keeper.js";
import { findSupply, getBalance } from "../bank/keeper.js";
import type { QueryContext } from "../nodeModule.js";
import { decodeStringValue } from "../../store/wrapperValues.js";
import { fieldText } from "../../../codec/fieldText.js";
import { liquidityDenomOf, reservePoolAddressBytes, STANDARD_DENOM_KEY } from "./keys.js";
import { readParams } from "./keeper.js";
import type { QueryHandler } from "../nodeModule.js";

/** The handlers of the coinswap Query service, by method. */
export const coinswapQueries: Record<string, QueryHandler> = {
  async Liquidity(request, ctx) {
    const tokenDenom = fieldText(request.denom);
    const liquidityDenom = liquidityDenomOf(tokenDenom);
    const reserve = reservePoolAddressBytes(liquidityDenom);
    const bank = ctx.storeOf("bank");
    if (!(await reservePoolExists(ctx, reserve))) throw notFound(`${liquidityDenom}: reserve pool not exists`);
    const standardDenom = decodeStringValue((await ctx.store.get(STANDARD_DENOM_KEY)) ?? new Uint8Array());
    const liquidity = await findSupply(bank, liquidityDenom);
    const params = await readParams(ctx.store, ctx);
    return {
      standard: { denom: standardDenom, amount: (await getBalance(bank, reserve, standardDenom)).toString() },
      token: { denom: tokenDenom, amount: (await getBalance(bank, reserve, tokenDenom)).toString() },
      liquidity: { denom: liquidityDenom, amount: (liquidity ?? 0n).toString() },
      fee: decFromWire(fieldText(params.fee)),
    };
  },
};

/** The real keeper answers "reserve pool not exists" when the reserve account is unknown to auth. */
async function reservePoolExists(ctx: QueryContext, reserve: Uint8Array): Promise<boolean> {
  return (await ctx.storeOf("auth").get(accountKey(reserve))) !== undefined;
}
