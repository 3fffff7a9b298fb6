import { sha256 } from "@noble/hashes/sha2.js";
import { bech32Prefixes } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { ModuleContext, NodeModule } from "../nodeModule.js";
import { addressAt, timestampMillis } from "../shared/genesisChecks.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import { days, devValidators } from "../shared/devValidators.js";
import { evidenceQueries } from "./queries.js";
import { EVIDENCE_PREFIX, evidenceKey } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import { neutralTypeUrl, profileTypeUrl } from "../../../codec/typeRegistry.js";
import { valuesUnder } from "../shared/exportReads.js";

const EQUIVOCATION_URL = "/core.evidence.v1beta1.Equivocation";

/** Equivocation.Hash(): SHA-256 of its canonical proto encoding. */
function evidenceHash(any: ProtoMessage, ctx: ModuleContext): Uint8Array {
  const type = ctx.codec.type(EQUIVOCATION_URL.slice(1));
  return sha256(type.encode(type.decode(any.value as Uint8Array)).finish());
}

export const evidenceModule: NodeModule = {
  name: "evidence",
  genesisType: "core.evidence.v1beta1.GenesisState",
  queryService: "core.evidence.v1beta1.Query",

  queries: evidenceQueries,

  /** Each evidence must be an Equivocation that passes ValidateBasic, and appear once. */
  validateGenesis(state, ctx) {
    const seen = new Set<string>();
    const consensus = bech32Prefixes(ctx.chain.bech32Prefix).consensus;
    ((state.evidence ?? []) as ProtoMessage[]).forEach((any, i) => {
      const at = `evidence[${i}]`;
      if (neutralTypeUrl(any.type_url) !== EQUIVOCATION_URL)
        throw new Error(`${at}: unsupported evidence type "${String(any.type_url)}" (expected ${profileTypeUrl(EQUIVOCATION_URL)})`);
      const e = ctx.codec.type(EQUIVOCATION_URL.slice(1)).decode(any.value as Uint8Array) as unknown as ProtoMessage;
      if (timestampMillis(e.time) <= 0) throw new Error(`${at}.time: invalid equivocation time`);
      if (Number(fieldText(e.height, "0")) < 1) throw new Error(`${at}.height: invalid equivocation height: ${fieldText(e.height, "0")}`);
      if (Number(fieldText(e.power, "0")) < 1) throw new Error(`${at}.power: invalid equivocation validator power: ${fieldText(e.power, "0")}`);
      addressAt(e.consensus_address, consensus, `${at}.consensus_address`);
      const hash = Buffer.from(evidenceHash(any, ctx)).toString("hex").toUpperCase();
      if (seen.has(hash)) throw new Error(`${at}: evidence with hash ${hash} already exists`);
      seen.add(hash);
    });
  },

  async exportGenesis(ctx) {
    return { evidence: await valuesUnder(ctx.store, EVIDENCE_PREFIX, ctx, "google.protobuf.Any") };
  },

  async initGenesis(state, ctx) {
    const anyType = ctx.codec.type("google.protobuf.Any");
    for (const any of (state.evidence ?? []) as ProtoMessage[]) ctx.store.set(evidenceKey(evidenceHash(any, ctx)), anyType.encode(any).finish());
  },

  /** One Equivocation: validator B double-signed two days before genesis (it is jailed and tombstoned for it). */
  devGenesis(ctx: DevGenesisContext) {
    const { b } = devValidators(ctx);
    return {
      evidence: [
        {
          "@type": EQUIVOCATION_URL,
          height: "1",
          time: new Date(ctx.genesisTime.getTime() - days(2)).toISOString(),
          power: "10000",
          consensus_address: b.consensusAddress,
        },
      ],
    };
  },
};
