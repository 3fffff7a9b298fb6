import { decodeBech32Address } from "../../codec/bech32.js";
import { createAccount, getAccount } from "../modules/auth/keeper.js";
import { mintCoins } from "../modules/bank/keeper.js";
import type { ExecContext } from "../modules/nodeModule.js";
import type { FundEntry } from "./forkPoint.js";

/** `--fork-fund`: coins minted to each account (the supply rises with them), its account created when the remote has none. */
export async function fundForkAccounts(ctx: ExecContext, fund: FundEntry[]): Promise<void> {
  const auth = ctx.storeOf("auth");
  for (const { address, coins } of fund) {
    await mintCoins(ctx, address, coins);
    const bytes = decodeBech32Address(address, ctx.chain.bech32Prefix, "address");
    if (!(await getAccount(auth, ctx.codec, bytes))) await createAccount(auth, ctx.codec, ctx.chain.bech32Prefix, bytes);
  }
}
