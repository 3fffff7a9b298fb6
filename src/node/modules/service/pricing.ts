import { fieldText } from "../../../codec/fieldText.js";
import { parseDec } from "../../../codec/decimal.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { Coin } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { DEC_ONE, decFromInt, decFromWire, decMul, decTruncateInt } from "../shared/decMath.js";
import { serviceError } from "./errors.js";
import { baseDenom, readServiceParams } from "./params.js";
import { exchangeRate } from "./exchangeRate.js";
import { getRequestVolume, type Binding } from "./store.js";

/** A binding's pricing (irismod v1.3.1 keeper/binding.go ParsePricing, types/binding.go). */
export interface Pricing {
  price: Coin;
  promotionsByTime: Array<{ start: Date; end: Date; discount: bigint }>;
  promotionsByVolume: Array<{ volume: bigint; discount: bigint }>;
}

const PRICE = /^\s*(\d+)\s*([a-zA-Z][a-zA-Z0-9/:._-]{2,127})\s*$/;

/** ParsePricing: the JSON pricing with its price as one coin (sdk.ParseCoinNormalized). */
export function parsePricing(text: string): Pricing {
  let raw: { price?: string; promotions_by_time?: ProtoMessage[]; promotions_by_volume?: ProtoMessage[] };
  try {
    raw = JSON.parse(text) as typeof raw;
  } catch (err) {
    throw serviceError("invalidPricing", `failed to unmarshal the pricing: ${(err as Error).message}`);
  }
  const match = PRICE.exec(raw.price ?? "");
  if (!match) throw serviceError("invalidPricing", `invalid price: invalid decimal coin expression: ${raw.price ?? ""}`);
  return {
    price: { denom: match[2]!, amount: BigInt(match[1]!) },
    promotionsByTime: (raw.promotions_by_time ?? []).map((p) => ({
      start: new Date(fieldText(p.start_time)),
      end: new Date(fieldText(p.end_time)),
      discount: parseDec(fieldText(p.discount)),
    })),
    promotionsByVolume: (raw.promotions_by_volume ?? []).map((p) => ({ volume: BigInt(fieldText(p.volume, "0")), discount: parseDec(fieldText(p.discount)) })),
  };
}

/** ValidatePricing: promotions by time in order without overlap, by volume ascending. */
export function checkPromotions(pricing: Pricing): void {
  pricing.promotionsByTime.forEach((p, i) => {
    const previous = pricing.promotionsByTime[i - 1];
    if (!(p.end > p.start) || (previous && p.start < previous.end)) throw serviceError("invalidPricing", `invalid timing promotion ${i}`);
  });
  pricing.promotionsByVolume.forEach((p, i) => {
    const previous = pricing.promotionsByVolume[i - 1];
    if (previous && p.volume < previous.volume) throw serviceError("invalidPricing", `invalid volume promotion ${i}`);
  });
}

function discountByTime(pricing: Pricing, time: Date): bigint {
  return pricing.promotionsByTime.find((p) => time >= p.start && time < p.end)?.discount ?? DEC_ONE;
}

function discountByVolume(pricing: Pricing, volume: bigint): bigint {
  const promotions = pricing.promotionsByVolume;
  for (let i = 0; i < promotions.length; i++) {
    if (volume < promotions[i]!.volume) return i === 0 ? DEC_ONE : promotions[i - 1]!.discount;
    if (i === promotions.length - 1) return promotions[i]!.discount;
  }
  return DEC_ONE;
}

/** The binding's price with the discounts by time and by the consumer's request volume, as a Dec. */
async function discounted(ctx: ExecContext, consumer: string, binding: Binding): Promise<{ denom: string; amount: bigint }> {
  const pricing = parsePricing(binding.pricing);
  const volume = await getRequestVolume(ctx, consumer, binding.service_name, binding.provider);
  const amount = decMul(decMul(decFromInt(pricing.price.amount), discountByTime(pricing, ctx.time)), discountByVolume(pricing, volume));
  return { denom: pricing.price.denom, amount };
}

/** GetPrice: the discounted price in its own denom, truncated (a request's service fee). */
export async function discountedPrice(ctx: ExecContext, consumer: string, binding: Binding): Promise<Coin> {
  const price = await discounted(ctx, consumer, binding);
  return { denom: price.denom, amount: decTruncateInt(price.amount) };
}

/** GetExchangedPrice: the discounted price in the base denom (through the exchange rate for another denom), truncated. */
export async function exchangedPrice(ctx: ExecContext, consumer: string, binding: Binding): Promise<Coin> {
  const base = await baseDenom(ctx);
  const price = await discounted(ctx, consumer, binding);
  const amount = price.denom === base ? price.amount : decMul(price.amount, await exchangeRate(ctx, price.denom, base));
  return { denom: base, amount: decTruncateInt(amount) };
}

/** GetMinDeposit: price × min_deposit_multiple in the base denom, at least the min_deposit param. */
export async function minDeposit(ctx: ExecContext, pricing: Pricing): Promise<Coin[]> {
  const params = await readServiceParams(ctx.storeOf("service"), ctx);
  const base = fieldText(params.base_denom);
  let basePrice = pricing.price.amount;
  if (pricing.price.denom !== base && basePrice !== 0n) {
    basePrice = decTruncateInt(decMul(decFromInt(basePrice), await exchangeRate(ctx, pricing.price.denom, base)));
    if (basePrice === 0n) basePrice = 1n;
  }
  const deposit = basePrice * BigInt(fieldText(params.min_deposit_multiple, "0"));
  const minimum = ((params.min_deposit ?? []) as ProtoMessage[]).map((c) => ({ denom: fieldText(c.denom), amount: BigInt(fieldText(c.amount, "0")) }));
  if (deposit === 0n) return [];
  // IsAllLT: every coin of the computed deposit below the param's
  const allLess = minimum.length > 0 && (minimum.find((m) => m.denom === base)?.amount ?? 0n) > deposit;
  return allLess ? minimum : [{ denom: base, amount: deposit }];
}

/** The service fee tax rate (a Dec). */
export async function serviceFeeTax(ctx: ExecContext): Promise<bigint> {
  return decFromWire(fieldText((await readServiceParams(ctx.storeOf("service"), ctx)).service_fee_tax));
}
