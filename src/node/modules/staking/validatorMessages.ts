import { bech32Prefixes, consensusAddressBytes } from "../../../codec/addresses.js";
import { formatDec } from "../../../codec/decimal.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import { bytesEqual } from "../../store/keyEncoding.js";
import type { MsgRoute } from "../nodeModule.js";
import { DEC_ONE } from "../shared/decMath.js";
import { toTimestamp } from "../shared/genesisChecks.js";
import { rfc3339Nano } from "../shared/goTime.js";
import { accountBytes, accountSigner, bech32Bytes, isEmpty, operatorAccount, operatorAddressBytes } from "../shared/msgAddresses.js";
import { delegate } from "./delegation.js";
import { stakingError } from "./errors.js";
import { stakingHooks } from "./hooks.js";
import { BondStatus, getValidator, getValidatorByConsensusAddress } from "./keeper.js";
import { validatorByConsKey } from "./keys.js";
import { coinOf, decField, intField, invalidRequest, positiveCoin, requireBondDenom, stakingMessage } from "./msgChecks.js";
import { setPowerIndex, setValidator, staking } from "./store.js";
import { fieldText } from "../../../codec/fieldText.js";
import { neutralTypeUrl } from "../../../codec/typeRegistry.js";

/** MsgCreateValidator and MsgEditValidator (v0.41 msgs.go ValidateBasic, keeper/msg_server.go), with the real errors and events. */

const DESCRIPTION_FIELDS = ["moniker", "identity", "website", "security_contact", "details"] as const;
const DESCRIPTION_LIMITS: Record<(typeof DESCRIPTION_FIELDS)[number], [number, string]> = {
  moniker: [70, "moniker"],
  identity: [3000, "identity"],
  website: [140, "website"],
  security_contact: [140, "security contact"],
  details: [280, "details"],
};
const DO_NOT_MODIFY = "[do-not-modify]";
/** consensus_params.validator.pub_key_types of the chain. */
const CONSENSUS_KEY_TYPES = ["ed25519"];
const CONSENSUS_KEYS: Record<string, string> = { "/core.crypto.ed25519.PubKey": "ed25519", "/core.crypto.secp256k1.PubKey": "secp256k1" };

function description(msg: ProtoMessage): Record<string, string> {
  const d = (msg.description ?? {}) as Record<string, unknown>;
  return Object.fromEntries(DESCRIPTION_FIELDS.map((f) => [f, fieldText(d[f])]));
}

const emptyDescription = (d: Record<string, string>) => DESCRIPTION_FIELDS.every((f) => d[f] === "");

/** Description.EnsureLength */
function ensureLength(d: Record<string, string>): void {
  for (const field of DESCRIPTION_FIELDS) {
    const [max, name] = DESCRIPTION_LIMITS[field];
    const length = Buffer.byteLength(d[field]!);
    if (length > max) throw invalidRequest(`invalid ${name} length; got: ${length}, max: ${max}`);
  }
}

/** CommissionRates.Validate */
function validateCommissionRates(rate: bigint, maxRate: bigint, maxChange: bigint): void {
  if (maxRate < 0n) throw stakingError("commissionNegative");
  if (maxRate > DEC_ONE) throw stakingError("commissionHuge");
  if (rate < 0n) throw stakingError("commissionNegative");
  if (rate > maxRate) throw stakingError("commissionGTMaxRate");
  if (maxChange < 0n) throw stakingError("commissionChangeRateNegative");
  if (maxChange > maxRate) throw stakingError("commissionChangeRateGTMaxRate");
}

/** Commission.String(): the YAML the real event carries. */
function commissionYaml(commission: ProtoMessage): string {
  const rates = (commission.commission_rates ?? {}) as ProtoMessage;
  const updated = commission.update_time as ProtoMessage | undefined;
  const time = new Date(Number(fieldText(updated?.seconds, "0")) * 1000 + Math.floor(Number(updated?.nanos ?? 0) / 1e6));
  return [
    "commission_rates:",
    `  rate: "${formatDec(decField(rates.rate))}"`,
    `  max_rate: "${formatDec(decField(rates.max_rate))}"`,
    `  max_change_rate: "${formatDec(decField(rates.max_change_rate))}"`,
    `update_time: ${rfc3339Nano(time)}`,
    "",
  ].join("\n");
}

export const validatorMessages: Record<string, MsgRoute> = {
  "core.staking.v1beta1.MsgCreateValidator": {
    action: "create_validator",
    signers: (msg, chain) => [accountSigner(msg.delegator_address, chain.bech32Prefix)],
    validateBasic(msg, chain) {
      const prefixes = bech32Prefixes(chain.bech32Prefix);
      const delegator = bech32Bytes(msg.delegator_address, prefixes.account);
      if (isEmpty(msg, "validator_address")) throw stakingError("emptyValidatorAddr");
      const operator = bech32Bytes(msg.validator_address, prefixes.validatorOperator);
      if (!bytesEqual(delegator, operator)) throw stakingError("badValidatorAddr");
      if (!msg.pubkey) throw stakingError("emptyValidatorPubKey");
      const typeUrl = fieldText((msg.pubkey as ProtoMessage).type_url);
      if (!CONSENSUS_KEYS[neutralTypeUrl(typeUrl)])
        throw sdkError("txDecode", `no concrete type registered for type URL ${typeUrl} against interface *types.PubKey`);
      positiveCoin(msg.value, "invalid delegation amount");
      if (emptyDescription(description(msg))) throw invalidRequest("empty description");
      const rates = (msg.commission ?? {}) as ProtoMessage;
      const [rate, maxRate, maxChange] = [decField(rates.rate), decField(rates.max_rate), decField(rates.max_change_rate)];
      if (rate === 0n && maxRate === 0n && maxChange === 0n) throw invalidRequest("empty commission");
      validateCommissionRates(rate, maxRate, maxChange);
      const minSelf = intField(msg.min_self_delegation);
      if (minSelf <= 0n) throw invalidRequest("minimum self delegation must be a positive integer");
      if (coinOf(msg.value).amount < minSelf) throw stakingError("selfDelegationBelowMinimum");
    },
    async handler(msg, ctx) {
      const operator = operatorAddressBytes(msg.validator_address, ctx);
      if (await getValidator(staking(ctx), ctx, operator)) throw stakingError("validatorOwnerExists");
      const any = msg.pubkey as ProtoMessage;
      const keyType = CONSENSUS_KEYS[neutralTypeUrl(any.type_url)]!;
      const key = (ctx.codec.type(String(any.type_url).slice(1)).decode((any.value as Uint8Array) ?? new Uint8Array()) as unknown as { key: Uint8Array }).key;
      const consensus = consensusAddressBytes(key);
      if (await getValidatorByConsensusAddress(staking(ctx), ctx, consensus)) throw stakingError("validatorPubKeyExists");
      const value = coinOf(msg.value);
      await requireBondDenom(ctx, value.denom);
      ensureLength(description(msg));
      if (!CONSENSUS_KEY_TYPES.includes(keyType))
        throw stakingError("validatorPubKeyTypeNotSupported", `got: ${keyType}, expected: [${CONSENSUS_KEY_TYPES.join(" ")}]`);
      const rates = (msg.commission ?? {}) as ProtoMessage;
      validateCommissionRates(decField(rates.rate), decField(rates.max_rate), decField(rates.max_change_rate));
      const delegator = accountBytes(msg.delegator_address, ctx);
      const validator: ProtoMessage = {
        operator_address: msg.validator_address,
        consensus_pubkey: any,
        jailed: false,
        status: BondStatus.unbonded,
        tokens: "0",
        delegator_shares: "0",
        description: description(msg),
        unbonding_height: "0",
        unbonding_time: toTimestamp(new Date(0)),
        commission: {
          commission_rates: { rate: fieldText(rates.rate), max_rate: fieldText(rates.max_rate), max_change_rate: fieldText(rates.max_change_rate) },
          update_time: toTimestamp(ctx.time),
        },
        min_self_delegation: String(msg.min_self_delegation),
      };
      const store = staking(ctx);
      setValidator(ctx, operator, validator);
      store.set(validatorByConsKey(consensus), operator);
      setPowerIndex(ctx, operator, validator);
      await stakingHooks.afterValidatorCreated(ctx, operator);
      await delegate(ctx, delegator, value.amount, BondStatus.unbonded, operator, true);
      ctx.emit({
        type: "create_validator",
        attributes: [
          { key: "validator", value: String(msg.validator_address) },
          { key: "amount", value: value.amount.toString() },
        ],
      });
      stakingMessage(ctx, msg.delegator_address);
      return {};
    },
  },

  "core.staking.v1beta1.MsgEditValidator": {
    action: "edit_validator",
    signers: (msg, chain) => [operatorAccount(msg.validator_address, chain.bech32Prefix)],
    validateBasic(msg) {
      if (isEmpty(msg, "validator_address")) throw stakingError("emptyValidatorAddr");
      if (emptyDescription(description(msg))) throw invalidRequest("empty description");
      if (!isEmpty(msg, "min_self_delegation") && intField(msg.min_self_delegation) <= 0n)
        throw invalidRequest("minimum self delegation must be a positive integer");
      if (!isEmpty(msg, "commission_rate")) {
        const rate = decField(msg.commission_rate);
        if (rate > DEC_ONE || rate < 0n) throw invalidRequest("commission rate must be between 0 and 1 (inclusive)");
      }
    },
    async handler(msg, ctx) {
      const operator = operatorAddressBytes(msg.validator_address, ctx);
      const validator = await getValidator(staking(ctx), ctx, operator);
      if (!validator) throw stakingError("noValidatorFound");
      // UpdateDescription: "[do-not-modify]" keeps a field
      const current = description(validator);
      const wanted = description(msg);
      const updated = Object.fromEntries(DESCRIPTION_FIELDS.map((f) => [f, wanted[f] === DO_NOT_MODIFY ? current[f]! : wanted[f]!]));
      ensureLength(updated);
      validator.description = updated;
      if (!isEmpty(msg, "commission_rate")) {
        const commission = (validator.commission ?? {}) as ProtoMessage;
        const rates = (commission.commission_rates ?? {}) as ProtoMessage;
        const newRate = decField(msg.commission_rate);
        const updatedAt = commission.update_time as ProtoMessage | undefined;
        const since = ctx.time.getTime() - (Number(fieldText(updatedAt?.seconds, "0")) * 1000 + Math.floor(Number(updatedAt?.nanos ?? 0) / 1e6));
        if (since < 24 * 3600 * 1000) throw stakingError("commissionUpdateTime");
        if (newRate < 0n) throw stakingError("commissionNegative");
        if (newRate > decField(rates.max_rate)) throw stakingError("commissionGTMaxRate");
        if (newRate - decField(rates.rate) > decField(rates.max_change_rate)) throw stakingError("commissionGTMaxChangeRate");
        validator.commission = { commission_rates: { ...rates, rate: newRate.toString() }, update_time: toTimestamp(ctx.time) };
      }
      if (!isEmpty(msg, "min_self_delegation")) {
        const minSelf = intField(msg.min_self_delegation);
        if (minSelf <= intField(validator.min_self_delegation)) throw stakingError("minSelfDelegationDecreased");
        if (minSelf > intField(validator.tokens)) throw stakingError("selfDelegationBelowMinimum");
        validator.min_self_delegation = minSelf.toString();
      }
      setValidator(ctx, operator, validator);
      ctx.emit({
        type: "edit_validator",
        attributes: [
          { key: "commission_rate", value: commissionYaml(validator.commission as ProtoMessage) },
          { key: "min_self_delegation", value: intField(validator.min_self_delegation).toString() },
        ],
      });
      stakingMessage(ctx, msg.validator_address);
      return {};
    },
  },
};
