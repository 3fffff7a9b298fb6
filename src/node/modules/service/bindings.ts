import { formatCoins, getSupply, sendCoins, type Coin } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { isAllGTE } from "../shared/coinChecks.js";
import { bytesEqual } from "../../store/keyEncoding.js";
import { durationMs, goTimeString } from "../shared/goTime.js";
import { TxError } from "../../abci/txError.js";
import { serviceError } from "./errors.js";
import { addCoinLists, DEPOSIT_ACCOUNT, moduleAccount } from "./fees.js";
import { baseDenom, maxRequestTimeout, readServiceParams } from "./params.js";
import { checkPromotions, minDeposit, parsePricing, type Pricing } from "./pricing.js";
import * as store from "./store.js";
import { ZERO_TIME, type Binding } from "./store.js";
import { checkOptions } from "./validation.js";

/** The service keeper's binding rules (irismod v1.3.1 keeper/binding.go). */

export interface BindingSettings {
  serviceName: string;
  provider: string;
  deposit: Coin[];
  pricing: string;
  qos: number;
  options: string;
  owner: string;
}

/** validateDeposit: exactly one coin, of the base denom. */
async function checkDepositDenom(ctx: ExecContext, deposit: Coin[]): Promise<void> {
  const base = await baseDenom(ctx);
  if (deposit.length !== 1 || deposit[0]!.denom !== base) throw serviceError("invalidDeposit", `deposit only accepts ${base}`);
}

async function checkQoSLimit(ctx: ExecContext, qos: number): Promise<void> {
  const max = await maxRequestTimeout(ctx);
  if (qos > max) throw serviceError("invalidQoS", `QoS [${qos}] must not be greater than maximum request timeout [${max}]`);
}

/** ParsePricing, ValidatePricing and the check that the price's denom has a supply. */
async function parseAndCheckPricing(ctx: ExecContext, text: string): Promise<Pricing> {
  const pricing = parsePricing(text);
  checkPromotions(pricing);
  if ((await getSupply(ctx.storeOf("bank"), pricing.price.denom)) <= 0n) throw serviceError("invalidPricing", `invalid denom: ${pricing.price.denom}`);
  return pricing;
}

/** GetMinDeposit wrapped as the keeper reports it, then the deposit compared with it. */
async function checkMinimumDeposit(ctx: ExecContext, pricing: Pricing, deposit: Coin[]): Promise<void> {
  let minimum: Coin[];
  try {
    minimum = await minDeposit(ctx, pricing);
  } catch (err) {
    if (err instanceof TxError) throw serviceError("invalidMinDeposit", err.message);
    throw err;
  }
  if (!isAllGTE(deposit, minimum))
    throw serviceError("invalidDeposit", `insufficient deposit: minimum deposit ${formatCoins(minimum)}, ${formatCoins(deposit)} got`);
}

async function bindingOwnedBy(ctx: ExecContext, serviceName: string, provider: string, owner: string): Promise<Binding> {
  const binding = await store.getBinding(ctx, serviceName, provider);
  if (!binding) throw serviceError("unknownServiceBinding");
  if (binding.owner !== owner) throw serviceError("notAuthorized", "owner not matching");
  return binding;
}

export async function addBinding(ctx: ExecContext, s: BindingSettings): Promise<void> {
  if (!(await store.getDefinition(ctx, s.serviceName))) throw serviceError("unknownServiceDefinition", s.serviceName);
  if (await store.getBinding(ctx, s.serviceName, s.provider)) throw serviceError("serviceBindingExists");
  const providerBytes = store.providerBytes(ctx, s.provider);
  const ownerBytes = store.providerBytes(ctx, s.owner);
  const currentOwner = await store.getOwner(ctx, providerBytes);
  if (currentOwner && !bytesEqual(currentOwner, ownerBytes)) throw serviceError("notAuthorized", "owner not matching");
  await checkDepositDenom(ctx, s.deposit);
  await checkQoSLimit(ctx, s.qos);
  checkOptions(s.options);
  const pricing = await parseAndCheckPricing(ctx, s.pricing);
  await checkMinimumDeposit(ctx, pricing, s.deposit);
  await sendCoins(ctx, s.owner, moduleAccount(ctx, DEPOSIT_ACCOUNT), s.deposit);
  const binding: Binding = {
    service_name: s.serviceName,
    provider: s.provider,
    deposit: s.deposit,
    pricing: s.pricing,
    qos: s.qos,
    options: s.options,
    available: true,
    disabled_time: ZERO_TIME,
    owner: s.owner,
  };
  store.setBinding(ctx, binding);
  store.setOwnerBinding(ctx, ownerBytes, s.serviceName, providerBytes);
  if (!currentOwner) store.setOwner(ctx, providerBytes, ownerBytes);
}

/** UpdateServiceBinding: empty fields keep their values; the deposit is added to the binding's. */
export async function updateBinding(ctx: ExecContext, s: BindingSettings): Promise<void> {
  const binding = await bindingOwnedBy(ctx, s.serviceName, s.provider, s.owner);
  let updated = false;
  if (s.qos !== 0) {
    await checkQoSLimit(ctx, s.qos);
    binding.qos = s.qos;
    updated = true;
  }
  if (s.deposit.length > 0) {
    await checkDepositDenom(ctx, s.deposit);
    binding.deposit = addCoinLists(binding.deposit, s.deposit);
    updated = true;
  }
  const pricing = parsePricing(binding.pricing);
  if (s.pricing !== "") {
    // the real keeper checks the new pricing but, through a shadowed variable, compares the deposit with the old one
    await parseAndCheckPricing(ctx, s.pricing);
    binding.pricing = s.pricing;
    updated = true;
  }
  if (s.options !== "") {
    checkOptions(s.options);
    binding.options = s.options;
    updated = true;
  }
  if (binding.available && updated) await checkMinimumDeposit(ctx, pricing, binding.deposit);
  if (s.deposit.length > 0) await sendCoins(ctx, s.owner, moduleAccount(ctx, DEPOSIT_ACCOUNT), s.deposit);
  if (updated) store.setBinding(ctx, binding);
}

export async function disableBinding(ctx: ExecContext, serviceName: string, provider: string, owner: string): Promise<void> {
  const binding = await bindingOwnedBy(ctx, serviceName, provider, owner);
  if (!binding.available) throw serviceError("serviceBindingUnavailable");
  binding.available = false;
  binding.disabled_time = ctx.time;
  store.setBinding(ctx, binding);
}

export async function enableBinding(ctx: ExecContext, serviceName: string, provider: string, deposit: Coin[], owner: string): Promise<void> {
  const binding = await bindingOwnedBy(ctx, serviceName, provider, owner);
  if (binding.available) throw serviceError("serviceBindingAvailable");
  if (deposit.length > 0) {
    await checkDepositDenom(ctx, deposit);
    binding.deposit = addCoinLists(binding.deposit, deposit);
  }
  await checkMinimumDeposit(ctx, parsePricing(binding.pricing), binding.deposit);
  if (deposit.length > 0) await sendCoins(ctx, owner, moduleAccount(ctx, DEPOSIT_ACCOUNT), deposit);
  binding.available = true;
  binding.disabled_time = ZERO_TIME;
  store.setBinding(ctx, binding);
}

/** RefundDeposit: a disabled binding's deposit, once arbitration_time_limit + complaint_retrospect have passed since it was disabled. */
export async function refundDeposit(ctx: ExecContext, serviceName: string, provider: string, owner: string): Promise<void> {
  const binding = await bindingOwnedBy(ctx, serviceName, provider, owner);
  if (binding.available) throw serviceError("serviceBindingAvailable");
  if (binding.deposit.length === 0) throw serviceError("invalidDeposit", "the deposit of the service binding is zero");
  const params = await readServiceParams(ctx.storeOf("service"), ctx);
  const refundable = new Date(binding.disabled_time.getTime() + durationMs(params.arbitration_time_limit) + durationMs(params.complaint_retrospect));
  if (ctx.time < refundable) throw serviceError("incorrectRefundTime", goTimeString(refundable));
  await sendCoins(ctx, moduleAccount(ctx, DEPOSIT_ACCOUNT), owner, binding.deposit);
  binding.deposit = [];
  store.setBinding(ctx, binding);
}
