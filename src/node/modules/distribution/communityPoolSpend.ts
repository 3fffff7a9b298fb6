import { bech32Prefixes, moduleAddress } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { coinsFromProto, sendCoins } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { decCoinsFromCoins, decCoinsSafeSub } from "../shared/decMath.js";
import { accountBytes } from "../shared/msgAddresses.js";
import { DISTRIBUTION_ACCOUNT } from "./genesis.js";
import { distributionError } from "./errors.js";
import { requireNotModuleAccount } from "./messages.js";
import { getCommunityPool, setCommunityPool } from "./state.js";

/**
 * HandleCommunityPoolSpendProposal: DistributeFromFeePool — the amount leaves
 * the community pool (ErrBadDistribution when it holds less) and goes to the recipient.
 */
export async function spendFromCommunityPool(ctx: ExecContext, content: ProtoMessage): Promise<void> {
  const recipient = accountBytes(content.recipient, ctx);
  await requireNotModuleAccount(ctx, recipient, String(content.recipient));
  const amount = coinsFromProto(content.amount);
  const pool = decCoinsSafeSub(await getCommunityPool(ctx), decCoinsFromCoins(amount));
  if (!pool) throw distributionError("badDistribution");
  setCommunityPool(ctx, pool);
  const prefix = ctx.chain.bech32Prefix;
  await sendCoins(ctx, moduleAddress(prefix, DISTRIBUTION_ACCOUNT), encodeBech32Address(bech32Prefixes(prefix).account, recipient), amount);
}
