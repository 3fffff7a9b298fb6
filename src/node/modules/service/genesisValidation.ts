import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { ModuleContext } from "../nodeModule.js";
import { assertCoins, assertJsonObject, big, canonicalAddress, uniqueKeys } from "../shared/genesisObjectChecks.js";
import { decodeHex, upperHex } from "../shared/hexBytes.js";
import { CONTEXT_ID_HEX_LENGTH, REQUEST_ID_HEX_LENGTH, splitRequestId } from "./ids.js";
import { fieldText } from "../../../codec/fieldText.js";

const SERVICE_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,69}$/;
const PRICE = /^\d+[a-zA-Z][a-zA-Z0-9/]{2,127}$/; // the pricing schema's price pattern
const ONE = 10n ** 18n;

type Messages = ProtoMessage[];
const list = (value: unknown) => (value ?? []) as Messages;
const entries = (value: unknown) => Object.entries((value ?? {}) as Record<string, ProtoMessage>);

/** The checks of irismod's ValidateGenesis, plus the consistency of the node's extension fields. */
export function validateServiceGenesis(state: ProtoMessage, ctx: ModuleContext): void {
  const prefix = ctx.chain.bech32Prefix;
  const address = (value: unknown, field: string) => decodeBech32Address(fieldText(value), prefix, field);
  const canonical = (value: unknown, field: string) => canonicalAddress(address(value, field), prefix);
  validateParams((state.params ?? {}) as ProtoMessage);
  const definitions = validateDefinitions(list(state.definitions), address);
  const { bindings, ownerOf } = validateBindings(list(state.bindings), definitions, canonical, fieldText(((state.params ?? {}) as ProtoMessage).base_denom));

  const withdraw = uniqueKeys("owner");
  for (const [owner, withdrawAddress] of Object.entries((state.withdraw_addresses ?? {}) as Record<string, string>)) {
    const at = `withdraw_addresses[${owner}]`;
    withdraw(canonical(owner, at), at);
    address(withdrawAddress, at);
  }

  const contexts = validateRequestContexts(state.request_contexts, definitions, address, canonical);
  const requestIds = uniqueKeys("request");
  list(state.requests).forEach((entry, i) => validateRequest(entry, `requests[${i}]`, { contexts, bindings, requestIds, canonical }));

  const earners = uniqueKeys("provider");
  list(state.earned_fees).forEach((earned, i) => {
    const at = `earned_fees[${i}]`;
    const provider = canonical(earned.provider, `${at}.provider`);
    earners(provider, `${at}.provider`);
    if (!ownerOf.has(provider)) throw new Error(`${at}.provider: ${provider} has no service binding, so no owner to credit`);
    assertCoins(earned.fees, `${at}.fees`, { nonEmpty: true });
  });
}

type AddressCheck = (value: unknown, field: string) => Uint8Array;
type CanonicalCheck = (value: unknown, field: string) => string;

function validateDefinitions(definitions: Messages, address: AddressCheck): Set<string> {
  const names = new Set<string>();
  definitions.forEach((definition, i) => {
    const at = `definitions[${i}]`;
    const name = serviceName(definition.name, `${at}.name`);
    if (names.has(name)) throw new Error(`${at}.name: duplicate service definition ${name}`);
    names.add(name);
    if (fieldText(definition.description).length > 280) throw new Error(`${at}.description: longer than 280 characters`);
    const tags = (definition.tags ?? []) as string[];
    if (tags.length > 10) throw new Error(`${at}.tags: more than 10 tags`);
    tags.forEach((tag, t) => {
      if (tag === "" || tag.length > 70) throw new Error(`${at}.tags[${t}]: a tag has 1 to 70 characters`);
    });
    address(definition.author, `${at}.author`);
    const schemas = assertJsonObject(definition.schemas, `${at}.schemas`);
    for (const part of ["input", "output"]) {
      if (typeof schemas[part] !== "object" || schemas[part] === null) throw new Error(`${at}.schemas: needs an "${part}" JSON schema object`);
    }
  });
  return names;
}

/** Bindings by "service/provider", and each provider's owner (a provider has one owner for all its bindings). */
function validateBindings(list: Messages, definitions: Set<string>, canonical: CanonicalCheck, baseDenom: string) {
  const bindings = new Map<string, ProtoMessage>();
  const ownerOf = new Map<string, string>();
  list.forEach((binding, i) => {
    const at = `bindings[${i}]`;
    const name = serviceName(binding.service_name, `${at}.service_name`);
    if (!definitions.has(name)) throw new Error(`${at}.service_name: unknown service definition ${name}`);
    const provider = canonical(binding.provider, `${at}.provider`);
    const owner = canonical(binding.owner, `${at}.owner`);
    if (bindings.has(`${name}/${provider}`)) throw new Error(`${at}: duplicate binding of ${provider} to ${name}`);
    if (ownerOf.has(provider) && ownerOf.get(provider) !== owner)
      throw new Error(`${at}.owner: provider ${provider} already has the owner ${ownerOf.get(provider)}`);
    bindings.set(`${name}/${provider}`, binding);
    ownerOf.set(provider, owner);
    assertCoins(binding.deposit, `${at}.deposit`);
    const pricing = assertJsonObject(binding.pricing, `${at}.pricing`);
    if (typeof pricing.price !== "string" || !PRICE.test(pricing.price))
      throw new Error(`${at}.pricing: "price" must be an amount and a denom, e.g. "5${baseDenom}"`);
    if (big(binding.qos) === 0n) throw new Error(`${at}.qos: must be positive`);
    assertJsonObject(binding.options, `${at}.options`);
  });
  return { bindings, ownerOf };
}

/** Request contexts by upper-case hex id. */
function validateRequestContexts(
  requestContexts: unknown,
  definitions: Set<string>,
  address: AddressCheck,
  canonical: CanonicalCheck,
): Map<string, ProtoMessage> {
  const contexts = new Map<string, ProtoMessage>();
  for (const [id, context] of entries(requestContexts)) {
    const at = `request_contexts[${id}]`;
    const bytes = id.length === CONTEXT_ID_HEX_LENGTH ? decodeHex(id) : undefined;
    if (!bytes) throw new Error(`${at}: a request context id is ${CONTEXT_ID_HEX_LENGTH} hex digits`);
    if (contexts.has(upperHex(bytes))) throw new Error(`${at}: duplicate request context`);
    contexts.set(upperHex(bytes), context);
    const name = serviceName(context.service_name, `${at}.service_name`);
    if (!definitions.has(name)) throw new Error(`${at}.service_name: unknown service definition ${name}`);
    const providers = (context.providers ?? []) as string[];
    if (providers.length === 0) throw new Error(`${at}.providers: must not be empty`);
    const unique = uniqueKeys("provider");
    providers.forEach((provider, p) => unique(canonical(provider, `${at}.providers[${p}]`), `${at}.providers[${p}]`));
    address(context.consumer, `${at}.consumer`);
    assertJsonObject(context.input, `${at}.input`);
    assertCoins(context.service_fee_cap, `${at}.service_fee_cap`);
  }
  return contexts;
}

interface RequestChecks {
  contexts: Map<string, ProtoMessage>;
  bindings: Map<string, ProtoMessage>;
  requestIds: (key: string, at: string) => void;
  canonical: CanonicalCheck;
}

function validateRequest(entry: ProtoMessage, at: string, checks: RequestChecks): void {
  const request = (entry.request ?? {}) as ProtoMessage;
  const id = fieldText(request.id);
  const bytes = id.length === REQUEST_ID_HEX_LENGTH ? decodeHex(id) : undefined;
  if (!bytes) throw new Error(`${at}.request.id: a request id is ${REQUEST_ID_HEX_LENGTH} hex digits`);
  checks.requestIds(upperHex(bytes), `${at}.request.id`);
  const parts = splitRequestId(bytes);
  const contextId = upperHex(parts.contextId);
  if (fieldText(request.request_context_id).toUpperCase() !== contextId)
    throw new Error(`${at}.request.request_context_id: the request id belongs to request context ${contextId}`);
  if (big(request.request_context_batch_counter) !== parts.batchCounter)
    throw new Error(`${at}.request.request_context_batch_counter: the request id says batch ${parts.batchCounter}`);
  if (big(request.request_height) !== parts.requestHeight) throw new Error(`${at}.request.request_height: the request id says height ${parts.requestHeight}`);
  if (big(request.expiration_height) <= parts.requestHeight) throw new Error(`${at}.request.expiration_height: must be after the request height`);
  const context = checks.contexts.get(contextId);
  if (!context) throw new Error(`${at}.request.request_context_id: unknown request context ${contextId}`);
  if (big(context.batch_counter) !== parts.batchCounter)
    throw new Error(
      `${at}.request.request_context_batch_counter: only the current batch (${big(context.batch_counter)}) of a request context keeps its requests`,
    );
  for (const field of ["service_name", "consumer", "input"]) {
    if (fieldText(request[field]) !== fieldText(context[field])) throw new Error(`${at}.request.${field}: differs from the request context's`);
  }
  const provider = checks.canonical(request.provider, `${at}.request.provider`);
  if (!checks.bindings.has(`${String(request.service_name)}/${provider}`))
    throw new Error(`${at}.request.provider: ${provider} has no binding to ${String(request.service_name)}`);
  assertCoins(request.service_fee, `${at}.request.service_fee`);

  const response = entry.response as ProtoMessage | undefined;
  if (!response) return;
  if (fieldText(response.provider) !== String(request.provider)) throw new Error(`${at}.response.provider: differs from the request's`);
  if (fieldText(response.consumer) !== String(request.consumer)) throw new Error(`${at}.response.consumer: differs from the request's`);
  if (fieldText(response.request_context_id).toUpperCase() !== contextId) throw new Error(`${at}.response.request_context_id: differs from the request's`);
  if (big(response.request_context_batch_counter) !== parts.batchCounter)
    throw new Error(`${at}.response.request_context_batch_counter: differs from the request's`);
  const result = assertJsonObject(response.result, `${at}.response.result`);
  if (![200, 400, 500].includes(result.code as number)) throw new Error(`${at}.response.result: "code" must be 200, 400 or 500`);
}

function validateParams(params: ProtoMessage): void {
  if (big(params.max_request_timeout) <= 0n) throw new Error("params.max_request_timeout: maximum request timeout must be positive");
  if (big(params.min_deposit_multiple) <= 0n) throw new Error("params.min_deposit_multiple: minimum deposit multiple must be positive");
  assertCoins(params.min_deposit, "params.min_deposit");
  const tax = big(params.service_fee_tax); // Dec fields hold the integer scaled by 10^18
  if (tax < 0n || tax >= ONE) throw new Error("params.service_fee_tax: service fee tax must be between [0, 1)");
  const slash = big(params.slash_fraction);
  if (slash < 0n || slash > ONE) throw new Error("params.slash_fraction: slashing fraction must be between [0, 1]");
  for (const field of ["complaint_retrospect", "arbitration_time_limit"]) {
    const duration = (params[field] ?? {}) as ProtoMessage;
    if (big(duration.seconds) <= 0n && Number(duration.nanos ?? 0) <= 0) throw new Error(`params.${field}: must be positive`);
  }
  if (big(params.tx_size_limit) === 0n) throw new Error("params.tx_size_limit: tx size limit must be positive");
  if (!DENOM_PATTERN.test(fieldText(params.base_denom))) throw new Error(`params.base_denom: invalid denom "${fieldText(params.base_denom)}"`);
}

function serviceName(value: unknown, field: string): string {
  const name = fieldText(value);
  if (!SERVICE_NAME.test(name))
    throw new Error(`${field}: invalid service name "${name}": letters, digits, _ and - only, starting with a letter, at most 70 characters`);
  return name;
}
