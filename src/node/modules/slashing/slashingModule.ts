import { bech32Prefixes } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { consensusAddressParam } from "../addressField.js";
import type { ModuleContext, NodeModule } from "../nodeModule.js";
import type { KVReader } from "../../store/kv.js";
import { aminoDec, aminoDuration, aminoInt64 } from "../staking/aminoParams.js";
import { addressAt, fractionAt } from "../staking/genesisChecks.js";
import { consensusAddressOf, decodeValidator } from "../staking/stakingKeeper.js";
import { VALIDATORS_PREFIX, lengthPrefixed } from "../staking/stakingKeys.js";
import { slashingDevGenesis } from "./slashingDevGenesis.js";

/**
 * Store layout of x/slashing: 0x00 → Params;
 * 0x01 | len | consensus address → ValidatorSigningInfo;
 * 0x02 | len | consensus address | index (8, little-endian) → missed (BoolValue);
 * 0x03 | len | consensus address → the validator's consensus public key (Any).
 */
const PARAMS_KEY = Uint8Array.of(0x00);
const SIGNING_INFO_PREFIX = Uint8Array.of(0x01);
const MISSED_BLOCK_PREFIX = Uint8Array.of(0x02);
const PUBKEY_PREFIX = Uint8Array.of(0x03);

export const signingInfoKey = (consensus: Uint8Array) => concatBytes(SIGNING_INFO_PREFIX, lengthPrefixed(consensus));

function missedBlockKey(consensus: Uint8Array, index: bigint): Uint8Array {
  const indexBytes = new Uint8Array(8);
  new DataView(indexBytes.buffer).setBigUint64(0, index, true);
  return concatBytes(MISSED_BLOCK_PREFIX, lengthPrefixed(consensus), indexBytes);
}

const SIGNING_INFO_TYPE = "core.slashing.v1beta1.ValidatorSigningInfo";
const MINUTE_SECONDS = 60;

async function readParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(PARAMS_KEY);
  return bytes ? (ctx.codec.type("core.slashing.v1beta1.Params").decode(bytes) as unknown as ProtoMessage) : {};
}

export const slashingModule: NodeModule = {
  name: "slashing",
  genesisType: "core.slashing.v1beta1.GenesisState",
  queryService: "core.slashing.v1beta1.Query",

  queries: {
    async Params(_request, ctx) {
      return { params: await readParams(ctx.store, ctx) };
    },
    async SigningInfo(request, ctx) {
      if (String(request.cons_address ?? "") === "") throw invalidArgument("invalid request");
      const bytes = await ctx.store.get(signingInfoKey(consensusAddressParam(request.cons_address, "cons_address", ctx)));
      if (!bytes) throw notFound(`SigningInfo not found for validator ${String(request.cons_address)}`);
      return { val_signing_info: ctx.codec.type(SIGNING_INFO_TYPE).decode(bytes) };
    },
    async SigningInfos(request, ctx) {
      const type = ctx.codec.type(SIGNING_INFO_TYPE);
      const result = await paginate(ctx.store, SIGNING_INFO_PREFIX, request.pagination as PageRequest, (_key, value) => type.decode(value));
      return { info: result.items, pagination: result.pagination };
    },
  },

  validateGenesis(state, ctx) {
    const params = (state.params ?? {}) as ProtoMessage;
    fractionAt(params.slash_fraction_downtime, "params.slash_fraction_downtime", "slashing fraction downtime");
    fractionAt(params.slash_fraction_double_sign, "params.slash_fraction_double_sign", "slashing fraction double sign");
    fractionAt(params.min_signed_per_window, "params.min_signed_per_window", "min signed per window");
    const jail = (params.downtime_jail_duration ?? {}) as { seconds?: unknown };
    if (Number(String(jail.seconds ?? 0)) < MINUTE_SECONDS) throw new Error("params.downtime_jail_duration: downtime unjail duration must be at least 1 minute");
    const window = Number(String(params.signed_blocks_window ?? 0));
    if (window < 10) throw new Error(`params.signed_blocks_window: signed blocks window must be at least 10, is ${window}`);
    const consensus = bech32Prefixes(ctx.chain.bech32Prefix).consensus;
    ((state.signing_infos ?? []) as ProtoMessage[]).forEach((info, i) => addressAt(info.address, consensus, `signing_infos[${i}].address`));
    ((state.missed_blocks ?? []) as ProtoMessage[]).forEach((missed, i) => addressAt(missed.address, consensus, `missed_blocks[${i}].address`));
  },

  async initGenesis(state, ctx) {
    const { store, codec } = ctx;
    const consensus = bech32Prefixes(ctx.chain.bech32Prefix).consensus;
    const anyType = codec.type("google.protobuf.Any");
    for await (const [, value] of ctx.storeOf("staking").iterate(VALIDATORS_PREFIX)) {
      const validator = decodeValidator(value, ctx);
      store.set(concatBytes(PUBKEY_PREFIX, lengthPrefixed(consensusAddressOf(validator, ctx))), anyType.encode(validator.consensus_pubkey as ProtoMessage).finish());
    }
    const infoType = codec.type(SIGNING_INFO_TYPE);
    for (const info of (state.signing_infos ?? []) as ProtoMessage[]) {
      store.set(signingInfoKey(addressAt(info.address, consensus, "address")), infoType.encode(info.validator_signing_info ?? {}).finish());
    }
    for (const array of (state.missed_blocks ?? []) as ProtoMessage[]) {
      const address = addressAt(array.address, consensus, "address");
      for (const missed of (array.missed_blocks ?? []) as ProtoMessage[]) {
        store.set(missedBlockKey(address, BigInt(String(missed.index ?? 0))), missed.missed ? Uint8Array.of(0x08, 0x01) : new Uint8Array());
      }
    }
    store.set(PARAMS_KEY, codec.type("core.slashing.v1beta1.Params").encode(state.params ?? {}).finish());
  },

  params: {
    subspace: "slashing",
    async read(store, ctx) {
      const params = await readParams(store, ctx);
      return {
        SignedBlocksWindow: aminoInt64(params.signed_blocks_window),
        MinSignedPerWindow: aminoDec(params.min_signed_per_window),
        DowntimeJailDuration: aminoDuration(params.downtime_jail_duration),
        SlashFractionDoubleSign: aminoDec(params.slash_fraction_double_sign),
        SlashFractionDowntime: aminoDec(params.slash_fraction_downtime),
      };
    },
  },

  devGenesis: slashingDevGenesis,
};
