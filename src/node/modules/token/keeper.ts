import { moduleAddress } from "../../../codec/addresses.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { concatBytes } from "../../store/keyEncoding.js";
import type { KVReader } from "../../store/kv.js";
import { utf8 } from "../../store/moduleStore.js";
import { burnCoins, getSupply, sendCoins, type Coin } from "../bank/keeper.js";
import { METADATA_PREFIX } from "../bank/keys.js";
import type { ExecContext, ModuleContext } from "../nodeModule.js";
import { DEC_ONE } from "../shared/decMath.js";
import { tokenError } from "./errors.js";
import { tokenFees } from "./fees.js";
import { readParams, TOKEN_TYPE, tokenBytes, tokenBytesBySymbol } from "./store.js";

/** The token module account (minter and burner): fees pass through it, issued and minted coins come from it. */
export const TOKEN_MODULE = "token";
export const tokenModuleAddress = (ctx: ModuleContext) => moduleAddress(ctx.chain.bech32Prefix, TOKEN_MODULE);

/** 10^scale: main units → min units. */
export const precision = (token: ProtoMessage) => 10n ** BigInt(Number(token.scale ?? 0));

const decode = (bytes: Uint8Array | undefined, ctx: ModuleContext) =>
  bytes ? (ctx.codec.type(TOKEN_TYPE).decode(bytes) as unknown as ProtoMessage) : undefined;

/** GetToken by symbol only (what EditToken, MintToken, BurnToken and TransferTokenOwner look up). */
async function tokenBySymbol(store: KVReader, symbol: string, ctx: ModuleContext): Promise<ProtoMessage | undefined> {
  return decode(await tokenBytesBySymbol(store, symbol), ctx);
}

/** GetToken by symbol or min unit. */
async function tokenByDenom(store: KVReader, denom: string, ctx: ModuleContext): Promise<ProtoMessage | undefined> {
  return decode(await tokenBytes(store, denom), ctx);
}

/** The token module's store, as a Msg handler reaches it. */
export const tokenStore = (ctx: ExecContext) => ctx.storeOf(TOKEN_MODULE);

/** A token looked up by symbol, or token 10 "token symbol <s> does not exist". */
export async function existingToken(ctx: ExecContext, symbol: string): Promise<ProtoMessage> {
  const token = await tokenBySymbol(tokenStore(ctx), symbol, ctx);
  if (!token) throw tokenError("tokenNotExists", `token symbol ${symbol} does not exist`);
  return token;
}

/** Token 12 unless `owner` owns the token. */
export function requireOwner(token: ProtoMessage, owner: string, symbol: string): void {
  if (fieldText(token.owner) !== owner) throw tokenError("invalidOwner", `the address ${owner} is not the owner of the token ${symbol}`);
}

/**
 * The issue and mint fees of a symbol as coins of the fee token's min unit (calcTokenIssueFee,
 * then ToMinCoin). The base fee's denom must be a token: else token 10 "token: <denom> does not exist".
 */
export async function feesOf(store: KVReader, symbol: string, ctx: ModuleContext): Promise<{ issue: Coin; mint: Coin }> {
  const params = await readParams(store, ctx);
  const baseFee = (params.issue_token_base_fee ?? {}) as ProtoMessage;
  const denom = fieldText(baseFee.denom);
  const feeToken = await tokenByDenom(store, denom, ctx);
  if (!feeToken) throw tokenError("tokenNotExists", `token: ${denom} does not exist`);
  const fees = tokenFees(
    symbol,
    { baseFeeAmount: BigInt(fieldText(baseFee.amount, "0")), baseFeeDenom: denom, mintTokenFeeRatio: BigInt(fieldText(params.mint_token_fee_ratio, "0")) },
    { symbol: fieldText(feeToken.symbol), min_unit: fieldText(feeToken.min_unit), scale: Number(feeToken.scale ?? 0) },
  );
  return {
    issue: { denom: fees.issueFee.denom, amount: BigInt(fees.issueFee.amount) },
    mint: { denom: fees.mintFee.denom, amount: BigInt(fees.mintFee.amount) },
  };
}

/**
 * feeHandler: the owner pays the fee into the token module, which sends the tax part
 * (token_tax_rate, truncated) to the fee collector and burns the rest. The burned fee is
 * not a burn record (total_burn counts MsgBurnToken only).
 */
export async function chargeTokenFee(ctx: ExecContext, owner: string, fee: Coin): Promise<void> {
  const params = await readParams(tokenStore(ctx), ctx);
  const tax = (fee.amount * BigInt(fieldText(params.token_tax_rate, "0"))) / DEC_ONE;
  const module = tokenModuleAddress(ctx);
  await sendCoins(ctx, owner, module, [fee]);
  await sendCoins(ctx, module, moduleAddress(ctx.chain.bech32Prefix, "fee_collector"), tax > 0n ? [{ denom: fee.denom, amount: tax }] : []);
  await burnCoins(ctx, module, [{ denom: fee.denom, amount: fee.amount - tax }]);
}

/** The coins of a token in circulation, in main units (truncated). */
export async function issuedMainUnits(ctx: ExecContext, token: ProtoMessage): Promise<bigint> {
  return (await getSupply(ctx.storeOf("bank"), fieldText(token.min_unit))) / precision(token);
}

/** The bank denom metadata of a token: its name as description, the min unit (0) and the symbol (scale). */
export function writeDenomMetadata(ctx: ExecContext, token: ProtoMessage): void {
  const minUnit = fieldText(token.min_unit);
  const metadata = {
    description: fieldText(token.name),
    denom_units: [
      { denom: minUnit, exponent: 0, aliases: [] },
      { denom: fieldText(token.symbol), exponent: Number(token.scale ?? 0), aliases: [] },
    ],
    base: minUnit,
    display: fieldText(token.symbol),
  };
  ctx.storeOf("bank").set(concatBytes(METADATA_PREFIX, utf8(minUnit)), ctx.codec.type("core.bank.v1beta1.Metadata").encode(metadata).finish());
}
