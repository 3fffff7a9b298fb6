import { moduleAddress } from "../../../codec/addresses.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import { burnCoins, mintCoins, sendCoins, type Coin } from "../bank/keeper.js";
import type { ExecContext, MsgRoute } from "../nodeModule.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import { checkAccountField } from "../shared/msgAddresses.js";
import { coinswapError } from "./errors.js";
import { feeFactor, inputPrice, outputPrice, poolOf, standardDenom, type Pool } from "./keeper.js";
import { LIQUIDITY_DENOM_PREFIX, liquidityDenomOf } from "./keys.js";
import { emitModuleMessage } from "../shared/msgEvents.js";

/** types.StandardDenom of v1.3.1: sdk.DefaultBondDenom, a compile-time constant that ValidateBasic refuses as a token. */
const COMPILED_STANDARD_DENOM = "stake";

const int = (value: unknown) => BigInt(fieldText(value, "0"));
const coinOf = (value: unknown): Coin => {
  const coin = (value ?? {}) as ProtoMessage;
  return { denom: fieldText(coin.denom), amount: int(coin.amount) };
};
const text = (coin: Coin) => `${coin.amount}${coin.denom}`;
const positive = (coin: Coin) => DENOM_PATTERN.test(coin.denom) && coin.amount > 0n;
/** sdk.NewCoins: sorted by denom, zero coins dropped. */
const newCoins = (...coins: Coin[]) => coins.filter((c) => c.amount > 0n).sort((a, b) => (a.denom < b.denom ? -1 : 1));
const coinswapModuleAddress = (ctx: ExecContext) => moduleAddress(ctx.chain.bech32Prefix, "coinswap");

/**
 * The coinswap module's Msgs (irismod v1.3.1 modules/coinswap): liquidity in and out of the
 * constant-product pools "swap/<token>" against the standard denom, and swaps (sell an exact
 * input or buy an exact output, through one pool or two), with the pool fee kept in the pool.
 */
export const coinswapMessages: Record<string, MsgRoute> = {
  "extmod.coinswap.MsgAddLiquidity": {
    action: "add_liquidity",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      const maxToken = coinOf(msg.max_token);
      if (!positive(maxToken)) throw sdkError("invalidCoins", `invalid maxToken (${text(maxToken)})`);
      if (maxToken.denom === COMPILED_STANDARD_DENOM) throw sdkError("invalidRequest", `max token must not be standard token: ${COMPILED_STANDARD_DENOM}`);
      if (maxToken.denom.startsWith(LIQUIDITY_DENOM_PREFIX)) throw sdkError("invalidRequest", "max token must be non-liquidity token");
      if (int(msg.exact_standard_amt) <= 0n) throw sdkError("invalidRequest", "standard token amount must be positive");
      if (int(msg.min_liquidity) < 0n) throw sdkError("invalidRequest", "minimum liquidity can not be negative");
      checkDeadline(msg.deadline);
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid sender address");
    },
    async handler(msg, ctx) {
      requireBeforeDeadline(ctx, msg.deadline, "MsgAddLiquidity");
      const sender = fieldText(msg.sender);
      const maxToken = coinOf(msg.max_token);
      const standard = await standardDenom(ctx.storeOf("coinswap"));
      // the real keeper panics here (a duplicate denomination in NewCoins): refused as ValidateBasic refuses "stake"
      if (maxToken.denom === standard) throw sdkError("invalidRequest", `max token must not be standard token: ${standard}`);
      const pool = await poolOf(ctx, liquidityDenomOf(maxToken.denom));
      const exact = int(msg.exact_standard_amt);
      let minted = exact;
      let deposit = maxToken.amount;
      if (pool.liquidity > 0n) {
        const [standardReserve, tokenReserve] = [await pool.reserve(standard), await pool.reserve(maxToken.denom)];
        minted = (pool.liquidity * exact) / standardReserve;
        deposit = (tokenReserve * exact) / standardReserve + 1n;
        const minLiquidity = int(msg.min_liquidity);
        if (minted < minLiquidity)
          throw coinswapError("constraintNotMet", `liquidity amount not met, user expected: no less than ${minLiquidity}, actual: ${minted}`);
        if (deposit > maxToken.amount) {
          throw coinswapError("constraintNotMet", `token amount not met, user expected: no more than ${text(maxToken)}, actual: ${deposit}${maxToken.denom}`);
        }
      }
      ctx.emit({ type: "add_liquidity", attributes: [attribute("sender", sender), attribute("token_pair", `${standard}-${maxToken.denom}`)] });
      await sendCoins(ctx, sender, pool.address, newCoins({ denom: standard, amount: exact }, { denom: maxToken.denom, amount: deposit }));
      const mintToken = { denom: pool.liquidityDenom, amount: minted };
      await mintCoins(ctx, coinswapModuleAddress(ctx), [mintToken]);
      await sendCoins(ctx, coinswapModuleAddress(ctx), sender, [mintToken]);
      emitModuleMessage(ctx, "coinswap", sender);
      return { mint_token: { denom: mintToken.denom, amount: minted.toString() } };
    },
  },

  "extmod.coinswap.MsgRemoveLiquidity": {
    action: "remove_liquidity",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      if (int(msg.min_token) < 0n) throw sdkError("invalidCoins", "minimum token amount can not be negative");
      const withdraw = coinOf(msg.withdraw_liquidity);
      if (!positive(withdraw)) throw sdkError("invalidCoins", `invalid withdrawLiquidity (${text(withdraw)})`);
      if (!withdraw.denom.startsWith(LIQUIDITY_DENOM_PREFIX)) throw coinswapError("invalidDenom", withdraw.denom);
      const minStandard = int(msg.min_standard_amt);
      if (minStandard < 0n) throw sdkError("invalidRequest", `minimum standard token amount ${minStandard} can not be negative`);
      checkDeadline(msg.deadline);
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid sender address");
    },
    async handler(msg, ctx) {
      requireBeforeDeadline(ctx, msg.deadline, "MsgRemoveLiquidity");
      const sender = fieldText(msg.sender);
      const withdraw = coinOf(msg.withdraw_liquidity);
      const tokenDenom = withdraw.denom.slice(LIQUIDITY_DENOM_PREFIX.length);
      const standard = await standardDenom(ctx.storeOf("coinswap"));
      const pool = await existingPool(ctx, withdraw.denom);
      const [standardReserve, tokenReserve] = [await pool.reserve(standard), await pool.reserve(tokenDenom)];
      const [minStandard, minToken] = [int(msg.min_standard_amt), int(msg.min_token)];
      const short = (denom: string, expected: bigint, actual: bigint) =>
        coinswapError("insufficientFunds", `insufficient ${denom} funds, user expected: ${expected}, actual: ${actual}`);
      if (standardReserve < minStandard) throw short(standard, minStandard, standardReserve);
      if (tokenReserve < minToken) throw short(tokenDenom, minToken, tokenReserve);
      if (pool.liquidity < withdraw.amount) throw short(withdraw.denom, withdraw.amount, pool.liquidity);
      const standardOut = (withdraw.amount * standardReserve) / pool.liquidity;
      const tokenOut = (withdraw.amount * tokenReserve) / pool.liquidity;
      if (standardOut < minStandard) {
        throw coinswapError(
          "constraintNotMet",
          `iris amount not met, user expected: no less than ${minStandard}${standard}, actual: ${standardOut}${standard}`,
        );
      }
      if (tokenOut < minToken) {
        throw coinswapError("constraintNotMet", `token amount not met, user expected: no less than ${minToken}${tokenDenom}, actual: ${tokenOut}${tokenDenom}`);
      }
      ctx.emit({ type: "remove_liquidity", attributes: [attribute("sender", sender), attribute("token_pair", `${standard}-${tokenDenom}`)] });
      await sendCoins(ctx, sender, coinswapModuleAddress(ctx), [withdraw]);
      await burnCoins(ctx, coinswapModuleAddress(ctx), [withdraw]);
      const withdrawn = newCoins({ denom: standard, amount: standardOut }, { denom: tokenDenom, amount: tokenOut });
      await sendCoins(ctx, pool.address, sender, withdrawn);
      emitModuleMessage(ctx, "coinswap", sender);
      // the real response repeats the last coin (a Go loop-variable pointer): the two coins are answered as withdrawn
      return { withdraw_coins: withdrawn.map((c) => ({ denom: c.denom, amount: c.amount.toString() })) };
    },
  },

  "extmod.coinswap.MsgSwapOrder": {
    action: "swap_order",
    responseType: "extmod.coinswap.MsgSwapCoinResponse",
    signers: (msg) => [fieldText(((msg.input ?? {}) as ProtoMessage).address)],
    validateBasic(msg, chain) {
      const [input, output] = [(msg.input ?? {}) as ProtoMessage, (msg.output ?? {}) as ProtoMessage];
      for (const [side, value] of [
        ["input", input],
        ["output", output],
      ] as const) {
        const coin = coinOf(value.coin);
        if (!positive(coin)) throw sdkError("invalidCoins", `invalid ${side} (${text(coin)})`);
        if (coin.denom.startsWith(LIQUIDITY_DENOM_PREFIX))
          throw sdkError("invalidRequest", `invalid ${side} denom,shoule not be begin with (${LIQUIDITY_DENOM_PREFIX})`);
        checkAccountField(value.address, chain.bech32Prefix, `invalid ${side} address`);
      }
      if (coinOf(input.coin).denom === coinOf(output.coin).denom) throw coinswapError("equalDenom", "invalid swap");
      checkDeadline(msg.deadline);
    },
    async handler(msg, ctx) {
      requireBeforeDeadline(ctx, msg.deadline, "MsgSwapOrder");
      const [input, output] = [(msg.input ?? {}) as ProtoMessage, (msg.output ?? {}) as ProtoMessage];
      const order: SwapOrder = {
        input: { address: fieldText(input.address), coin: coinOf(input.coin) },
        output: { address: fieldText(output.address), coin: coinOf(output.coin) },
        standard: await standardDenom(ctx.storeOf("coinswap")),
        factor: await feeFactor(ctx),
      };
      const buy = msg.is_buy_order === true;
      const double = order.input.coin.denom !== order.standard && order.output.coin.denom !== order.standard;
      const amount = buy
        ? double
          ? await buyDouble(ctx, order)
          : await buySingle(ctx, order)
        : double
          ? await sellDouble(ctx, order)
          : await sellSingle(ctx, order);
      ctx.emit({
        type: "swap",
        attributes: [
          attribute("amount", amount.toString()),
          attribute("sender", order.input.address),
          attribute("recipient", order.output.address),
          attribute("is_buy_order", String(buy)),
          attribute("token_pair", `${order.output.coin.denom}-${order.input.coin.denom}`),
        ],
      });
      emitModuleMessage(ctx, "coinswap", order.input.address);
      return {};
    },
  },
};

interface SwapOrder {
  input: { address: string; coin: Coin };
  output: { address: string; coin: Coin };
  standard: string;
  /** (1 − fee), raw 18-decimal. */
  factor: bigint;
}

/** The pool of the side of a single-pool swap that is not the standard denom. */
const singlePool = (ctx: ExecContext, order: SwapOrder) =>
  existingPool(ctx, liquidityDenomOf(order.input.coin.denom === order.standard ? order.output.coin.denom : order.input.coin.denom));

/** TradeExactInputForOutput: sell the exact input through one pool. */
async function sellSingle(ctx: ExecContext, order: SwapOrder): Promise<bigint> {
  const pool = await singlePool(ctx, order);
  const [reserveIn, reserveOut] = [await pool.reserve(order.input.coin.denom), await pool.reserve(order.output.coin.denom)];
  if (reserveIn <= 0n) throw coinswapError("insufficientFunds", `reserve pool insufficient funds, actual [${reserveIn}${order.input.coin.denom}]`);
  if (reserveOut <= 0n) throw coinswapError("insufficientFunds", `reserve pool insufficient funds, actual [${reserveOut}${order.output.coin.denom}]`);
  const bought = inputPrice(order.input.coin.amount, reserveIn, reserveOut, order.factor);
  requireAtLeast(order.output.coin, bought);
  await sendCoins(ctx, order.input.address, pool.address, [order.input.coin]);
  await sendCoins(ctx, pool.address, order.output.address, newCoins({ denom: order.output.coin.denom, amount: bought }));
  return bought;
}

/** TradeInputForExactOutput: buy the exact output through one pool. */
async function buySingle(ctx: ExecContext, order: SwapOrder): Promise<bigint> {
  const pool = await singlePool(ctx, order);
  const [reserveIn, reserveOut] = [await pool.reserve(order.input.coin.denom), await pool.reserve(order.output.coin.denom)];
  if (reserveIn <= 0n) throw coinswapError("insufficientFunds", `reserve pool insufficient balance: [${reserveIn}${order.input.coin.denom}]`);
  if (reserveOut <= 0n) throw coinswapError("insufficientFunds", `reserve pool insufficient balance: [${reserveOut}${order.output.coin.denom}]`);
  if (order.output.coin.amount >= reserveOut) {
    throw coinswapError(
      "insufficientFunds",
      `reserve pool insufficient balance of ${order.output.coin.denom}, user expected: ${order.output.coin.amount}, actual: ${reserveOut}`,
    );
  }
  const sold = outputPrice(order.output.coin.amount, reserveIn, reserveOut, order.factor);
  requireAtMost(order.input.coin, sold);
  await sendCoins(ctx, order.input.address, pool.address, [{ denom: order.input.coin.denom, amount: sold }]);
  await sendCoins(ctx, pool.address, order.output.address, [order.output.coin]);
  return sold;
}

/** Sell through two pools: the input's pool gives standard coins (paid to the recipient), the sender spends them in the output's pool. */
async function sellDouble(ctx: ExecContext, order: SwapOrder): Promise<bigint> {
  const [inPool, outPool] = [
    await existingPool(ctx, liquidityDenomOf(order.input.coin.denom)),
    await existingPool(ctx, liquidityDenomOf(order.output.coin.denom)),
  ];
  const middle = inputPrice(order.input.coin.amount, await inPool.reserve(order.input.coin.denom), await inPool.reserve(order.standard), order.factor);
  await sendCoins(ctx, order.input.address, inPool.address, [order.input.coin]);
  await sendCoins(ctx, inPool.address, order.output.address, newCoins({ denom: order.standard, amount: middle }));
  const bought = inputPrice(middle, await outPool.reserve(order.standard), await outPool.reserve(order.output.coin.denom), order.factor);
  requireAtLeast(order.output.coin, bought);
  await sendCoins(ctx, order.input.address, outPool.address, newCoins({ denom: order.standard, amount: middle }));
  await sendCoins(ctx, outPool.address, order.output.address, newCoins({ denom: order.output.coin.denom, amount: bought }));
  return bought;
}

/** Buy through two pools: the standard coins the output costs, then what they cost in the input's pool. */
async function buyDouble(ctx: ExecContext, order: SwapOrder): Promise<bigint> {
  const [inPool, outPool] = [
    await existingPool(ctx, liquidityDenomOf(order.input.coin.denom)),
    await existingPool(ctx, liquidityDenomOf(order.output.coin.denom)),
  ];
  const middle = outputPrice(order.output.coin.amount, await outPool.reserve(order.standard), await outPool.reserve(order.output.coin.denom), order.factor);
  const sold = outputPrice(middle, await inPool.reserve(order.input.coin.denom), await inPool.reserve(order.standard), order.factor);
  requireAtMost(order.input.coin, sold);
  await sendCoins(ctx, order.input.address, inPool.address, [{ denom: order.input.coin.denom, amount: sold }]);
  await sendCoins(ctx, inPool.address, order.output.address, [{ denom: order.standard, amount: middle }]);
  await sendCoins(ctx, order.input.address, outPool.address, [{ denom: order.standard, amount: middle }]);
  await sendCoins(ctx, outPool.address, order.output.address, [order.output.coin]);
  return sold;
}

function requireAtLeast(expected: Coin, actual: bigint): void {
  if (actual < expected.amount)
    throw coinswapError("constraintNotMet", `insufficient amount of ${expected.denom}, user expected: ${expected.amount}, actual: ${actual}`);
}

function requireAtMost(limit: Coin, actual: bigint): void {
  if (actual > limit.amount)
    throw coinswapError("constraintNotMet", `insufficient amount of ${limit.denom}, user expected: ${limit.amount}, actual: ${actual}`);
}

async function existingPool(ctx: ExecContext, liquidityDenom: string): Promise<Pool> {
  const pool = await poolOf(ctx, liquidityDenom);
  if (!pool.exists) throw coinswapError("reservePoolNotExists", liquidityDenom);
  return pool;
}

function checkDeadline(deadline: unknown): void {
  const value = int(deadline);
  if (value <= 0n) throw sdkError("invalidRequest", `deadline ${value} must be greater than 0`);
}

/** Refused when the block time is after the deadline (Unix seconds). */
function requireBeforeDeadline(ctx: ExecContext, deadline: unknown, msgName: string): void {
  if (ctx.time.getTime() > Number(int(deadline)) * 1000) throw coinswapError("invalidDeadline", `deadline has passed for ${msgName}`);
}

const attribute = (key: string, value: string) => ({ key, value });
