import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { fieldText } from "../../codec/fieldText.js";
import { GatewayError, GrpcCode } from "../../http/grpcStatus.js";
import type { ServiceContext, ServiceMethod } from "../serviceMethod.js";
import { askModule } from "../moduleQuery.js";
import { resolveTypeUrl } from "../../codec/typeRegistry.js";
import { lockedCoins, type CoinMap } from "./lockedCoins.js";

const BANK = "core.bank.v1beta1";

/**
 * The coins of `address` its account cannot spend at the answered height's
 * block time (vesting), read from v0.41's Account query and the block.
 */
async function lockedAt(context: ServiceContext, address: string, height: number): Promise<CoinMap> {
  const at = { ...context, height };
  const account = await askModule(at, "/core.auth.v1beta1.Query/Account", ["core.auth.v1beta1.QueryAccountRequest", "core.auth.v1beta1.QueryAccountResponse"], {
    address,
  }).catch((err: unknown) => {
    // an address without an account holds nothing locked (its balances may still be non-zero)
    if (err instanceof GatewayError && err.code === GrpcCode.NotFound) return undefined;
    throw err;
  });
  const any = account?.response.account as ProtoMessage | undefined;
  if (!any?.type_url) return new Map();
  const decoded = resolveTypeUrl(context.codec.root, fieldText(any.type_url)).decode(any.value as Uint8Array) as unknown as ProtoMessage;
  const block = await context.client.block(height);
  const time = Date.parse(fieldText(((block.block as ProtoMessage | undefined)?.header as ProtoMessage | undefined)?.time));
  return lockedCoins(fieldText(any.type_url), decoded, BigInt(Math.floor((Number.isNaN(time) ? 0 : time) / 1000)));
}

/**
 * Balance − locked, per coin of `page`. As SpendableCoins' SafeSub, a locked
 * amount over the account's balance of any denom (on this page or not)
 * leaves nothing spendable.
 */
async function spendable(context: ServiceContext, address: string, height: number, page: ProtoMessage[], locked: CoinMap): Promise<ProtoMessage[]> {
  const onPage = new Map(page.map((coin) => [fieldText(coin.denom), BigInt(fieldText(coin.amount, "0"))]));
  let negative = false;
  for (const [denom, amount] of locked) {
    const balance = onPage.get(denom) ?? (await balanceOf(context, address, denom, height));
    if (balance < amount) negative = true;
  }
  return page.map((coin) => {
    const denom = fieldText(coin.denom);
    return { denom, amount: negative ? "0" : (onPage.get(denom)! - (locked.get(denom) ?? 0n)).toString() };
  });
}

async function balanceOf(context: ServiceContext, address: string, denom: string, height: number): Promise<bigint> {
  const one = await askModule({ ...context, height }, `/${BANK}.Query/Balance`, [`${BANK}.QueryBalanceRequest`, `${BANK}.QueryBalanceResponse`], {
    address,
    denom,
  });
  return BigInt(fieldText((one.response.balance as ProtoMessage | undefined)?.amount, "0"));
}

/** Bank queries newer SDKs added, each derived from v0.41's, so `gateway --node` answers them from a real v0.41 node too. */
export const newerBankService: Record<string, ServiceMethod> = {
  [`/${BANK}.Query/SpendableBalances`]: async (request, context) => {
    const all = await askModule(context, `/${BANK}.Query/AllBalances`, [`${BANK}.QueryAllBalancesRequest`, `${BANK}.QueryAllBalancesResponse`], request);
    const address = fieldText(request.address);
    const locked = await lockedAt(context, address, all.height);
    const balances = await spendable(context, address, all.height, (all.response.balances ?? []) as ProtoMessage[], locked);
    return { response: { balances, pagination: all.response.pagination }, height: all.height };
  },

  [`/${BANK}.Query/SpendableBalanceByDenom`]: async (request, context) => {
    const one = await askModule(context, `/${BANK}.Query/Balance`, [`${BANK}.QueryBalanceRequest`, `${BANK}.QueryBalanceResponse`], request);
    const address = fieldText(request.address);
    const locked = await lockedAt(context, address, one.height);
    const [balance] = await spendable(context, address, one.height, [one.response.balance as ProtoMessage], locked);
    return { response: { balance }, height: one.height };
  },

  [`/${BANK}.Query/DenomMetadataByQueryString`]: async (request, context) => {
    const one = await askModule(context, `/${BANK}.Query/DenomMetadata`, [`${BANK}.QueryDenomMetadataRequest`, `${BANK}.QueryDenomMetadataResponse`], request);
    return { response: { metadata: one.response.metadata }, height: one.height };
  },
};
