import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { encodeUInt64Value } from "../../store/wrapperValues.js";
import { ACCOUNT_PREFIX, accountKey, baseAccountOf, NEXT_ACCOUNT_NUMBER_KEY, PARAMS_KEY } from "./keeper.js";
import { decodedAt, valuesUnder } from "../shared/exportReads.js";
import type { ExecContext, ModuleContext, NodeModule } from "../nodeModule.js";
import { GENESIS_STEP, runSteps } from "../shared/genesisSteps.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import { aminoUint64 } from "../shared/aminoParams.js";
import { authQueries } from "./queries.js";
import { fieldText } from "../../../codec/fieldText.js";
import { neutralTypeUrl, profileTypeUrl } from "../../../codec/typeRegistry.js";

const ACCOUNT_TYPES = [
  "core.auth.v1beta1.BaseAccount",
  "core.auth.v1beta1.ModuleAccount",
  "core.vesting.v1beta1.ContinuousVestingAccount",
  "core.vesting.v1beta1.DelayedVestingAccount",
  "core.vesting.v1beta1.PeriodicVestingAccount",
];

function* accountChecks(state: ProtoMessage, ctx: ModuleContext): Generator<void> {
  const seen = new Set<string>();
  const accounts = (state.accounts ?? []) as ProtoMessage[];
  for (const [i, any] of accounts.entries()) {
    checkedAccount(any, i, ctx, seen);
    if (i % GENESIS_STEP === GENESIS_STEP - 1) yield;
  }
}

/** Genesis account number `i`, checked (a known type, its address, no address twice): its base account and address bytes. */
function checkedAccount(any: ProtoMessage, i: number, ctx: ModuleContext, seen: Set<string>): { base: ProtoMessage; address: Uint8Array } {
  const base = baseAccountOf(unpackAccount(any, ctx, `accounts[${i}]`));
  const text = base.address as string;
  const address = decodeBech32Address(text, ctx.chain.bech32Prefix, `accounts[${i}].address`);
  if (seen.has(text)) throw new Error(`accounts[${i}].address: duplicate account ${text}`);
  seen.add(text);
  return { base, address };
}

/** InitGenesis's writes of the accounts, one at a time; the next account number (one past the highest) at the end. */
class AccountWrites {
  private nextNumber = 0n;
  private readonly anyType;

  constructor(private readonly ctx: ExecContext) {
    this.anyType = ctx.codec.type("google.protobuf.Any");
  }

  account(any: ProtoMessage, base: ProtoMessage, address: Uint8Array): void {
    this.ctx.store.set(accountKey(address), this.anyType.encode(any).finish());
    const number = BigInt(fieldText(base.account_number, "0"));
    if (number >= this.nextNumber) this.nextNumber = number + 1n;
  }

  end(params: unknown): void {
    const { store, codec } = this.ctx;
    store.set(
      PARAMS_KEY,
      codec
        .type("core.auth.v1beta1.Params")
        .encode(params ?? {})
        .finish(),
    );
    store.set(NEXT_ACCOUNT_NUMBER_KEY, encodeUInt64Value(this.nextNumber));
  }
}

export const authModule: NodeModule = {
  name: "auth",
  genesisType: "core.auth.v1beta1.GenesisState",
  queryService: "core.auth.v1beta1.Query",

  queries: authQueries,

  validateGenesis(state, ctx) {
    runSteps(accountChecks(state, ctx));
  },
  genesisValidationSteps: accountChecks,

  async exportGenesis(ctx) {
    return {
      params: await decodedAt(ctx.store, PARAMS_KEY, ctx, "core.auth.v1beta1.Params"),
      accounts: await valuesUnder(ctx.store, ACCOUNT_PREFIX, ctx, "google.protobuf.Any"),
    };
  },

  async initGenesis(state, ctx) {
    const writes = new AccountWrites(ctx);
    for (const any of (state.accounts ?? []) as ProtoMessage[]) {
      const base = baseAccountOf(unpackAccount(any, ctx, "accounts"));
      writes.account(any, base, decodeBech32Address(String(base.address), ctx.chain.bech32Prefix, "address"));
    }
    writes.end(state.params);
  },

  genesisImport(ctx) {
    const seen = new Set<string>();
    const writes = new AccountWrites(ctx);
    const each = (accounts: ProtoMessage[], first: number) =>
      accounts.forEach((any, i) => {
        const { base, address } = checkedAccount(any, first + i, ctx, seen);
        writes.account(any, base, address);
      });
    return {
      lists: ["accounts"],
      entries: (_list, accounts, first) => each(accounts, first),
      end(state) {
        each((state.accounts ?? []) as ProtoMessage[], 0);
        writes.end(state.params);
      },
    };
  },

  params: {
    subspace: "auth",
    async read(store, ctx) {
      const bytes = await store.get(PARAMS_KEY);
      const params = bytes ? (ctx.codec.type("core.auth.v1beta1.Params").decode(bytes) as unknown as ProtoMessage) : {};
      return {
        MaxMemoCharacters: aminoUint64(params.max_memo_characters),
        TxSigLimit: aminoUint64(params.tx_sig_limit),
        TxSizeCostPerByte: aminoUint64(params.tx_size_cost_per_byte),
        SigVerifyCostED25519: aminoUint64(params.sig_verify_cost_ed25519),
        SigVerifyCostSecp256k1: aminoUint64(params.sig_verify_cost_secp256k1),
      };
    },
  },

  devGenesis: (ctx: DevGenesisContext) => ({
    params: {
      max_memo_characters: "256",
      tx_sig_limit: "7",
      tx_size_cost_per_byte: "10",
      sig_verify_cost_ed25519: "590",
      sig_verify_cost_secp256k1: "1000",
    },
    accounts: [
      ...ctx.accounts.map((account, i) => ({
        "@type": "/core.auth.v1beta1.BaseAccount",
        address: account.address,
        pub_key: null,
        account_number: String(i),
        sequence: "0",
      })),
      ...ctx.otherAccounts.map((address, i) => ({
        "@type": "/core.auth.v1beta1.BaseAccount",
        address,
        pub_key: null,
        account_number: String(ctx.accounts.length + i),
        sequence: "0",
      })),
      ...ctx.moduleAccounts.map((module, i) => ({
        "@type": "/core.auth.v1beta1.ModuleAccount",
        base_account: { address: module.address, pub_key: null, account_number: String(ctx.accounts.length + ctx.otherAccounts.length + i), sequence: "0" },
        name: module.name,
        permissions: module.permissions,
      })),
    ],
  }),
};

function unpackAccount(any: ProtoMessage, ctx: ModuleContext, field: string): ProtoMessage {
  const typeName = neutralTypeUrl(fieldText(any.type_url)).slice(1);
  if (!ACCOUNT_TYPES.includes(typeName))
    throw new Error(
      `${field}: unsupported account type "${String(any.type_url)}" (expected ${ACCOUNT_TYPES.map((t) => profileTypeUrl(`/${t}`)).join(" or ")})`,
    );
  return ctx.codec.type(typeName).decode(any.value as Uint8Array);
}
