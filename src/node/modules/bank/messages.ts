import { decodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import { bankError } from "./errors.js";
import { getAccount } from "../auth/keeper.js";
import type { ChainInfo, ExecContext, MsgRoute } from "../nodeModule.js";
import { addCoins, coinsFromProto, formatCoins, subtractCoins, sendCoins, type Coin } from "./keeper.js";
import { PARAMS_KEY } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import { coinsAreValid } from "../shared/coinChecks.js";

/** The bank module's Msgs: MsgSend and MsgMultiSend, with the real checks, errors and events. */
export const bankMessages: Record<string, MsgRoute> = {
  "core.bank.v1beta1.MsgSend": {
    action: "send",
    signers: (msg) => [String(msg.from_address)],
    validateBasic(msg, chain) {
      address(msg.from_address, "sender", chain);
      address(msg.to_address, "recipient", chain);
      validCoins(coinsFromProto(msg.amount));
    },
    async handler(msg, ctx) {
      const coins = coinsFromProto(msg.amount);
      await requireSendEnabled(ctx, coins);
      await requireNotBlocked(ctx, String(msg.to_address));
      await sendCoins(ctx, String(msg.from_address), String(msg.to_address), coins);
      ctx.emit({ type: "message", attributes: [{ key: "module", value: "bank" }] });
      return {};
    },
  },
  "core.bank.v1beta1.MsgMultiSend": {
    action: "multisend",
    signers: (msg) => ((msg.inputs ?? []) as ProtoMessage[]).map((input) => String(input.address)),
    validateBasic(msg, chain) {
      const inputs = (msg.inputs ?? []) as ProtoMessage[];
      const outputs = (msg.outputs ?? []) as ProtoMessage[];
      if (inputs.length === 0) throw bankError("noInputs");
      if (outputs.length === 0) throw bankError("noOutputs");
      for (const entry of [...inputs, ...outputs]) {
        address(entry.address, "address", chain);
        validCoins(coinsFromProto(entry.coins));
      }
      if (formatCoins(sum(inputs)) !== formatCoins(sum(outputs))) throw bankError("inputOutputMismatch");
    },
    async handler(msg, ctx) {
      const bank = ctx.storeOf("bank");
      const prefix = ctx.chain.bech32Prefix;
      for (const output of (msg.outputs ?? []) as ProtoMessage[]) await requireNotBlocked(ctx, String(output.address));
      await requireSendEnabled(ctx, sum((msg.inputs ?? []) as ProtoMessage[]));
      for (const input of (msg.inputs ?? []) as ProtoMessage[]) {
        await subtractCoins(bank, decodeBech32Address(String(input.address), prefix, "input"), coinsFromProto(input.coins));
        ctx.emit({ type: "message", attributes: [{ key: "sender", value: String(input.address) }] });
      }
      for (const output of (msg.outputs ?? []) as ProtoMessage[]) {
        const coins = coinsFromProto(output.coins);
        await addCoins(bank, decodeBech32Address(String(output.address), prefix, "output"), coins);
        ctx.emit({
          type: "transfer",
          attributes: [
            { key: "recipient", value: String(output.address) },
            { key: "amount", value: formatCoins(coins) },
          ],
        });
      }
      ctx.emit({ type: "message", attributes: [{ key: "module", value: "bank" }] });
      return {};
    },
  },
};

function address(value: unknown, role: string, chain: ChainInfo): void {
  try {
    decodeBech32Address(fieldText(value), chain.bech32Prefix, role);
  } catch (err) {
    throw sdkError("invalidAddress", `Invalid ${role} address (${(err as Error).message})`);
  }
}

/** Coins.IsValid and IsAllPositive: sorted unique valid denoms with positive amounts. */
function validCoins(coins: Coin[]): void {
  if (coins.length === 0 || !coinsAreValid(coins)) throw sdkError("invalidCoins", formatCoins(coins));
}

function sum(entries: ProtoMessage[]): Coin[] {
  const totals = new Map<string, bigint>();
  for (const entry of entries) for (const coin of coinsFromProto(entry.coins)) totals.set(coin.denom, (totals.get(coin.denom) ?? 0n) + coin.amount);
  return [...totals].map(([denom, amount]) => ({ denom, amount }));
}

async function requireSendEnabled(ctx: ExecContext, coins: Coin[]): Promise<void> {
  const bytes = await ctx.storeOf("bank").get(PARAMS_KEY);
  const params = bytes
    ? (ctx.codec.type("core.bank.v1beta1.Params").decode(bytes) as unknown as {
        send_enabled?: Array<{ denom: string; enabled: boolean }>;
        default_send_enabled?: boolean;
      })
    : {};
  for (const coin of coins) {
    const entry = params.send_enabled?.find((e) => e.denom === coin.denom);
    const enabled = entry ? entry.enabled : (params.default_send_enabled ?? true);
    if (!enabled) throw bankError("sendDisabled", `${coin.denom} transfers are currently disabled`);
  }
}

/** Module accounts do not receive sends (the real keeper's blocked addresses). */
async function requireNotBlocked(ctx: ExecContext, to: string): Promise<void> {
  const account = await getAccount(ctx.storeOf("auth"), ctx.codec, decodeBech32Address(to, ctx.chain.bech32Prefix, "recipient"));
  if (account?.typeName === "core.auth.v1beta1.ModuleAccount") throw sdkError("unauthorized", `${to} is not allowed to receive funds`);
}
