import { moduleAddress } from "../../../codec/addresses.js";
import { sdkError } from "../../abci/txError.js";
import { formatCoins, sendCoins, type Coin } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { decFromInt, decMul, decTruncateInt } from "../shared/decMath.js";
import { bytesEqual } from "../../store/keyEncoding.js";
import { serviceError } from "./errors.js";
import * as keys from "./keys.js";
import { serviceFeeTax } from "./pricing.js";
import { addressText, deleteFees, getFees, getOwner, getWithdrawAddress, ownerProviders, setFees } from "./store.js";

/** The module accounts of irismod v1.3.1 service/types/keys.go; the tax account is the one the hub passes (as the dev genesis funds it). */
export const DEPOSIT_ACCOUNT = "service_deposit_account";
export const REQUEST_ACCOUNT = "service_request_account";
const TAX_ACCOUNT = "service_fee_collector";

export const moduleAccount = (ctx: ExecContext, name: string) => moduleAddress(ctx.chain.bech32Prefix, name);

export function addCoinLists(a: Coin[], b: Coin[]): Coin[] {
  const sums = new Map<string, bigint>();
  for (const coin of [...a, ...b]) sums.set(coin.denom, (sums.get(coin.denom) ?? 0n) + coin.amount);
  return [...sums]
    .filter(([, amount]) => amount !== 0n)
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([denom, amount]) => ({ denom, amount }));
}

const negate = (coins: Coin[]) => coins.map((c) => ({ denom: c.denom, amount: -c.amount }));

/** DeductServiceFees: the consumer pays the batch's prices into the request account. */
export async function deductServiceFees(ctx: ExecContext, consumer: string, fees: Coin[]): Promise<void> {
  await sendCoins(ctx, consumer, moduleAccount(ctx, REQUEST_ACCOUNT), fees);
}

/** RefundServiceFee: an unanswered request's fee goes back to the consumer. */
export async function refundServiceFee(ctx: ExecContext, consumer: string, fee: Coin[]): Promise<void> {
  if (fee.length > 0) await sendCoins(ctx, moduleAccount(ctx, REQUEST_ACCOUNT), consumer, fee);
}

/** AddEarnedFee (keeper/fees.go): the tax (fee × service_fee_tax, truncated) to the tax account, the rest earned by the provider and its owner. */
export async function addEarnedFee(ctx: ExecContext, provider: Uint8Array, fee: Coin[]): Promise<void> {
  const rate = await serviceFeeTax(ctx);
  const tax = fee.map((c) => ({ denom: c.denom, amount: decTruncateInt(decMul(decFromInt(c.amount), rate)) })).filter((c) => c.amount > 0n);
  if (tax.length > 0) await sendCoins(ctx, moduleAccount(ctx, REQUEST_ACCOUNT), moduleAccount(ctx, TAX_ACCOUNT), tax);
  const earned = addCoinLists(fee, negate(tax));
  setFees(ctx, keys.earnedFeesPrefix(provider), addCoinLists(await getFees(ctx, keys.earnedFeesPrefix(provider)), earned));
  const owner = (await getOwner(ctx, provider)) ?? new Uint8Array();
  setFees(ctx, keys.ownerEarnedFeesPrefix(owner), addCoinLists(await getFees(ctx, keys.ownerEarnedFeesPrefix(owner)), earned));
}

/**
 * WithdrawEarnedFees (keeper/fees.go): one provider's fees (its owner only), or, without a
 * provider, all the owner's; paid from the request account to the owner's withdraw address.
 */
export async function withdrawEarnedFees(ctx: ExecContext, owner: Uint8Array, provider: Uint8Array | undefined): Promise<void> {
  if (provider) {
    const providerOwner = await getOwner(ctx, provider);
    if (!providerOwner || !bytesEqual(providerOwner, owner)) throw serviceError("notAuthorized", "owner not matching");
  }
  const ownerFees = await getFees(ctx, keys.ownerEarnedFeesPrefix(owner));
  let withdrawn: Coin[];
  if (provider) {
    withdrawn = await getFees(ctx, keys.earnedFeesPrefix(provider));
    await deleteFees(ctx, keys.earnedFeesPrefix(provider));
    await deleteFees(ctx, keys.ownerEarnedFeesPrefix(owner));
    setFees(ctx, keys.ownerEarnedFeesPrefix(owner), addCoinLists(ownerFees, negate(withdrawn)));
  } else {
    for (const each of await ownerProviders(ctx, owner)) await deleteFees(ctx, keys.earnedFeesPrefix(each));
    await deleteFees(ctx, keys.ownerEarnedFeesPrefix(owner));
    withdrawn = ownerFees;
  }
  if (withdrawn.length === 0) return; // sending nothing moves nothing
  const to = addressText(ctx, await getWithdrawAddress(ctx, owner));
  const request = moduleAccount(ctx, REQUEST_ACCOUNT);
  if (withdrawn.some((c) => c.amount < 0n)) throw sdkError("insufficientFunds", formatCoins(withdrawn));
  await sendCoins(ctx, request, to, withdrawn);
}
