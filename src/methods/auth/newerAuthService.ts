import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { fieldText } from "../../codec/fieldText.js";
import { decodeBech32Address, encodeBech32Address } from "../../codec/bech32.js";
import { moduleAddress } from "../../codec/addresses.js";
import { resolveTypeUrl } from "../../codec/typeRegistry.js";
import { GatewayError, GrpcCode } from "../../http/grpcStatus.js";
import type { ServiceContext, ServiceMethod } from "../serviceMethod.js";
import { askModule } from "../moduleQuery.js";

const AUTH = "core.auth.v1beta1";
const ACCOUNT_TYPES: [string, string] = [`${AUTH}.QueryAccountRequest`, `${AUTH}.QueryAccountResponse`];

/** The hub's module accounts (its app's maccPerms), by name: a v0.41 node lists them nowhere, but their addresses follow from the names. */
const MODULE_NAMES = [
  "bonded_tokens_pool",
  "coinswap",
  "distribution",
  "fee_collector",
  "gov",
  "htlc",
  "mint",
  "not_bonded_tokens_pool",
  "service_deposit_account",
  "service_fee_collector",
  "service_request_account",
  "token",
  "transfer",
];

const invalid = (message: string) => new GatewayError(GrpcCode.InvalidArgument, message);

async function accountAny(context: ServiceContext, address: string): Promise<{ any?: ProtoMessage; height: number }> {
  try {
    const { response, height } = await askModule(context, `/${AUTH}.Query/Account`, ACCOUNT_TYPES, { address });
    return { any: response.account as ProtoMessage, height };
  } catch (err) {
    if (err instanceof GatewayError && err.code === GrpcCode.NotFound) return { height: context.height };
    throw err;
  }
}

/** The BaseAccount inside any account type (module and vesting accounts nest it). */
function baseAccount(context: ServiceContext, any: ProtoMessage): ProtoMessage {
  let account = resolveTypeUrl(context.codec.root, fieldText(any.type_url)).decode(any.value as Uint8Array) as unknown as ProtoMessage;
  while (account.base_vesting_account || account.base_account) account = (account.base_vesting_account ?? account.base_account) as ProtoMessage;
  return account;
}

/** Auth queries newer SDKs added, each derived from v0.41's Account query or from the chain's prefix. */
export const newerAuthService: Record<string, ServiceMethod> = {
  [`/${AUTH}.Query/Bech32Prefix`]: async (_request, context) => ({ response: { bech32_prefix: context.bech32Prefix } }),

  [`/${AUTH}.Query/AddressBytesToString`]: async (request, context) => {
    const bytes = request.address_bytes as Uint8Array | undefined;
    if (!bytes?.length) throw invalid("empty address bytes is not allowed");
    if (bytes.length > 255) throw invalid(`address length ${bytes.length} is out of range (at most 255 bytes)`);
    return { response: { address_string: encodeBech32Address(context.bech32Prefix, bytes) } };
  },

  [`/${AUTH}.Query/AddressStringToBytes`]: async (request, context) => {
    const text = fieldText(request.address_string);
    if (!text.trim()) throw invalid("empty address string is not allowed");
    try {
      return { response: { address_bytes: decodeBech32Address(text, context.bech32Prefix, "address_string") } };
    } catch (err) {
      throw invalid((err as Error).message);
    }
  },

  [`/${AUTH}.Query/AccountInfo`]: async (request, context) => {
    const address = fieldText(request.address);
    if (!address) throw invalid("empty address string is not allowed");
    const { any, height } = await accountAny(context, address);
    if (!any) throw new GatewayError(GrpcCode.NotFound, `account ${address} not found`);
    return { response: { info: baseAccount(context, any) }, height };
  },

  [`/${AUTH}.Query/ModuleAccounts`]: async (_request, context) => {
    // one height for every account: the first answer's
    let height = context.height;
    const accounts: ProtoMessage[] = [];
    for (const name of MODULE_NAMES) {
      const found = await accountAny({ ...context, height }, moduleAddress(context.bech32Prefix, name));
      height = found.height;
      if (found.any) accounts.push(found.any);
    }
    return { response: { accounts }, height: height || undefined };
  },
};
