import { decodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import { invalidArgument, notFound, QueryError } from "../../abci/queryError.js";
import type { ModuleContext } from "../nodeModule.js";
import { tokenFees } from "./fees.js";
import { BURNED_PREFIX, hasToken, ownerPrefix, readParams, SYMBOL_PREFIX, TOKEN_TYPE, tokenBytes, tokenBytesBySymbol } from "./store.js";
import { reasonOf, symbolError } from "./validation.js";
import { decodeStringValue } from "../../store/wrapperValues.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { QueryHandler } from "../nodeModule.js";
import { profileTypeUrl } from "../../../codec/typeRegistry.js";

const tokenTypeUrl = () => profileTypeUrl(`/${TOKEN_TYPE}`);

/** The handlers of the token Query service, by method. */
export const tokenQueries: Record<string, QueryHandler> = {
  async Token(request, ctx) {
    const denom = fieldText(request.denom);
    const bytes = await tokenBytes(ctx.store, denom);
    if (!bytes) throw notFound(`token ${denom} not found`);
    return { Token: { type_url: tokenTypeUrl(), value: bytes } };
  },
  async Tokens(request, ctx) {
    const ownerText = fieldText(request.owner);
    const pagination = request.pagination as PageRequest | undefined;
    if (ownerText === "") {
      const page = await paginate(ctx.store, SYMBOL_PREFIX, pagination, (_key, value) => ({ type_url: tokenTypeUrl(), value }));
      return { Tokens: page.items, pagination: page.pagination };
    }
    const owner = ownerAddress(ownerText, ctx);
    const page = await paginate(ctx.store, ownerPrefix(owner), pagination, async (_key, value) => {
      const bytes = await tokenBytesBySymbol(ctx.store, decodeStringValue(value));
      return bytes ? { type_url: tokenTypeUrl(), value: bytes } : undefined;
    });
    return { Tokens: page.items, pagination: page.pagination };
  },
  async Fees(request, ctx) {
    const symbol = fieldText(request.symbol);
    const invalid = symbolError(symbol);
    if (invalid) throw invalidArgument(invalid);
    const params = await readParams(ctx.store, ctx);
    const baseFee = (params.issue_token_base_fee ?? {}) as ProtoMessage;
    const baseFeeDenom = fieldText(baseFee.denom);
    const feeTokenBytes = await tokenBytes(ctx.store, baseFeeDenom);
    if (!feeTokenBytes) throw new QueryError("Internal", `token: ${baseFeeDenom} does not exist: token does not exist`);
    const feeToken = ctx.codec.type(TOKEN_TYPE).decode(feeTokenBytes) as unknown as ProtoMessage;
    const fees = tokenFees(
      symbol,
      { baseFeeAmount: BigInt(fieldText(baseFee.amount, "0")), baseFeeDenom, mintTokenFeeRatio: BigInt(fieldText(params.mint_token_fee_ratio, "0")) },
      { symbol: fieldText(feeToken.symbol), min_unit: fieldText(feeToken.min_unit), scale: Number(feeToken.scale ?? 0) },
    );
    return { exist: await hasToken(ctx.store, symbol), issue_fee: fees.issueFee, mint_fee: fees.mintFee };
  },
  async Params(_request, ctx) {
    return { params: await readParams(ctx.store, ctx) };
  },
  async TotalBurn(_request, ctx) {
    const coinType = ctx.codec.type("core.base.v1beta1.Coin");
    const burned_coins: ProtoMessage[] = [];
    for await (const [, value] of ctx.store.iterate(BURNED_PREFIX)) burned_coins.push(coinType.decode(value));
    return { burned_coins };
  },
};

/** The optional owner filter of Tokens; a bad one is InvalidArgument "invalid owner address (...)". */
function ownerAddress(value: string, ctx: ModuleContext): Uint8Array {
  try {
    return decodeBech32Address(value, ctx.chain.bech32Prefix, "owner");
  } catch (err) {
    throw invalidArgument(`invalid owner address (${reasonOf(err)})`);
  }
}
