import { fieldText } from "../../../codec/fieldText.js";
import { sdkError, TxError } from "../../abci/txError.js";
import { getBalance, type Coin } from "../bank/keeper.js";
import type { AnteCheck } from "../nodeModule.js";
import { accountBytes } from "../shared/msgAddresses.js";
import { tokenError } from "./errors.js";
import { feesOf } from "./keeper.js";
import { tokenBytes } from "./store.js";

const ISSUE = "extmod.token.MsgIssueToken";
const MINT = "extmod.token.MsgMintToken";
const BURN = "extmod.token.MsgBurnToken";

/**
 * The hub's token decorators (irishub v1.0.0 app/ante.go): ValidateTokenDecorator — a burn
 * names a token (symbol or min unit) — then ValidateTokenFeeDecorator — each owner holds the
 * issue and mint fees of all its Msgs in the transaction, after the transaction fee.
 */
export const tokenAnteCheck: AnteCheck = async (msgs, ctx) => {
  const store = ctx.storeOf("token");
  for (const { typeName, msg } of msgs) {
    if (typeName === BURN && !(await tokenBytes(store, fieldText(msg.symbol)))) {
      throw sdkError("invalidRequest", "burnt failed, only native tokens can be burnt");
    }
  }
  const fees = new Map<string, Coin>();
  for (const { typeName, msg } of msgs) {
    if (typeName !== ISSUE && typeName !== MINT) continue;
    let fee: Coin;
    try {
      const both = await feesOf(store, fieldText(msg.symbol), ctx);
      fee = typeName === ISSUE ? both.issue : both.mint;
    } catch (err) {
      if (err instanceof TxError) throw tokenError("invalidBaseFee", err.message);
      throw err;
    }
    const owner = fieldText(msg.owner);
    const sum = fees.get(owner);
    fees.set(owner, { denom: fee.denom, amount: (sum?.amount ?? 0n) + fee.amount });
  }
  const bank = ctx.storeOf("bank");
  for (const [owner, fee] of fees) {
    const balance = await getBalance(bank, accountBytes(owner, ctx), fee.denom);
    if (balance < fee.amount) {
      throw sdkError("insufficientFunds", `insufficient coins for token fee; ${balance}${fee.denom} < ${fee.amount}${fee.denom}`);
    }
  }
};
