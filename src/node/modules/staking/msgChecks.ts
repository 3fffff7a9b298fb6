import { sdkError } from "../../abci/txError.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { ExecContext } from "../nodeModule.js";
import { decFromWire } from "../shared/decMath.js";
import { stakingError } from "./errors.js";
import { bondDenom } from "./keeper.js";
import { staking } from "./store.js";
import { fieldText } from "../../../codec/fieldText.js";

/** Checks and helpers the staking Msgs share. */

export const invalidRequest = (text: string) => sdkError("invalidRequest", text);

export function coinOf(value: unknown): { denom: string; amount: bigint; valid: boolean } {
  const coin = (value ?? {}) as { denom?: string; amount?: string };
  const denom = fieldText(coin.denom);
  const amount = BigInt(String(coin.amount || "0"));
  return { denom, amount, valid: DENOM_PATTERN.test(denom) && amount >= 0n };
}

/** Coin.IsValid and a positive amount, or "invalid delegation amount" / "invalid shares amount". */
export function positiveCoin(value: unknown, what: string): void {
  const coin = coinOf(value);
  if (!coin.valid || coin.amount <= 0n) throw invalidRequest(what);
}

export const decField = (value: unknown) => decFromWire(fieldText(value));
export const intField = (value: unknown) => BigInt(fieldText(value, "0"));

export async function requireBondDenom(ctx: ExecContext, denom: string): Promise<void> {
  const expected = await bondDenom(staking(ctx), ctx);
  if (denom !== expected) throw stakingError("badDenom", `got ${denom}, expected ${expected}`);
}

/** The module's message event: message{module: staking, sender}. */
export const stakingMessage = (ctx: ExecContext, sender: unknown) =>
  ctx.emit({
    type: "message",
    attributes: [
      { key: "module", value: "staking" },
      { key: "sender", value: String(sender) },
    ],
  });
