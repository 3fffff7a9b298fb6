import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import { coinsFromProto, formatCoins } from "../bank/keeper.js";
import { coinsAreValid } from "../shared/coinChecks.js";
import { bech32Bytes, checkAccountField } from "../shared/msgAddresses.js";
import { decodeHex } from "../shared/hexBytes.js";
import { inputDocumentError, outputDocumentError, pricingDocumentError, resultDocumentError, schemaCompileError } from "./documentSchema.js";
import { serviceError } from "./errors.js";
import { CONTEXT_ID_HEX_LENGTH, REQUEST_ID_HEX_LENGTH } from "./ids.js";

/** The stateless checks of irismod v1.3.1 modules/service/types/validation.go and schema.go, with their texts. */

const MAX_NAME_LENGTH = 70;
const MAX_DESCRIPTION_LENGTH = 280;
const MAX_TAGS = 10;
const MAX_PROVIDERS = 10;
const SERVICE_NAME = /^[a-zA-Z][a-zA-Z0-9_-]*$/;
const TAG = /^[\S]{1,70}$/;

export const checkAddress = (value: unknown, prefix: string, role: string) => checkAccountField(value, prefix, `invalid ${role} address`);

export function checkServiceName(name: unknown): void {
  const text = fieldText(name);
  if (!SERVICE_NAME.test(text) || text.length > MAX_NAME_LENGTH) throw serviceError("invalidServiceName", text);
}

export function checkDescriptions(description: unknown, authorDescription?: unknown): void {
  const length = (v: unknown) => Buffer.byteLength(fieldText(v));
  if (length(description) > MAX_DESCRIPTION_LENGTH)
    throw serviceError("invalidDescription", `invalid service description length; got: ${length(description)}, max: ${MAX_DESCRIPTION_LENGTH}`);
  if (authorDescription !== undefined && length(authorDescription) > MAX_DESCRIPTION_LENGTH)
    throw serviceError("invalidDescription", `invalid author description length; got: ${length(authorDescription)}, max: ${MAX_DESCRIPTION_LENGTH}`);
}

export function checkTags(value: unknown): void {
  const tags = ((value ?? []) as unknown[]).map((t) => fieldText(t));
  if (tags.length > MAX_TAGS) throw serviceError("invalidTags", `invalid tags size; got: ${tags.length}, max: ${MAX_TAGS}`);
  if (new Set(tags).size !== tags.length) throw serviceError("invalidTags", "duplicate tag");
  tags.forEach((tag, i) => {
    if (!TAG.test(tag)) throw serviceError("invalidTags", `tag [${i}] is invalid, must match regexp: ${TAG.source}`);
  });
}

/** ValidateServiceSchemas: a JSON object whose input and output are JSON schemas. */
export function checkServiceSchemas(schemas: unknown): void {
  const text = fieldText(schemas);
  if (text === "") throw serviceError("invalidSchemas", "schemas missing");
  let parsed: { input?: unknown; output?: unknown };
  try {
    parsed = JSON.parse(text) as { input?: unknown; output?: unknown };
  } catch (err) {
    throw serviceError("invalidSchemas", `failed to unmarshal the schemas: ${(err as Error).message}`);
  }
  const input = schemaCompileError(parsed.input);
  if (input) throw serviceError("invalidSchemas", `invalid input schema: ${input}`);
  const output = schemaCompileError(parsed.output);
  if (output) throw serviceError("invalidSchemas", `invalid output schema: ${output}`);
}

/** ValidateServiceDeposit: valid coins (ErrInvalidCoins "invalid deposit"). */
export function checkDeposit(deposit: unknown): void {
  if (!coinsAreValid(coinsFromProto(deposit))) throw sdkError("invalidCoins", "invalid deposit");
}

export function checkQoS(qos: unknown): void {
  if (BigInt(fieldText(qos, "0")) === 0n) throw serviceError("invalidQoS", "qos must be greater than 0");
}

export function checkOptions(options: unknown): void {
  try {
    JSON.parse(fieldText(options));
  } catch {
    throw serviceError("invalidOptions", "options is not valid JSON");
  }
}

export function checkPricing(pricing: unknown): void {
  const text = fieldText(pricing);
  if (text === "") throw serviceError("invalidPricing", "pricing missing");
  const error = pricingDocumentError(text);
  if (error) throw serviceError("invalidPricing", error);
}

/** The providers of a Msg: each decoded as AccAddressFromBech32 does (a plain error), then the list checks. */
export function providerList(value: unknown, prefix: string): string[] {
  const providers = ((value ?? []) as unknown[]).map((p) => fieldText(p));
  for (const provider of providers) bech32Bytes(provider, prefix);
  return providers;
}

/** ValidateRequest (MsgCallService): name, fee cap, providers, input, timeout, repetition. */
export function checkRequest(msg: ProtoMessage, providers: string[]): void {
  checkServiceName(msg.service_name);
  checkServiceFeeCap(msg.service_fee_cap);
  if (providers.length === 0) throw sdkError("invalidRequest", "providers missing");
  if (providers.length > MAX_PROVIDERS) throw sdkError("invalidRequest", `total number of the providers must not be greater than ${MAX_PROVIDERS}`);
  checkDuplicateProviders(providers);
  checkInput(msg.input);
  const timeout = BigInt(fieldText(msg.timeout, "0"));
  if (timeout <= 0n) throw serviceError("invalidTimeout", `timeout [${timeout}] must be greater than 0`);
  if (msg.repeated === true) {
    const frequency = BigInt(fieldText(msg.repeated_frequency, "0"));
    if (frequency > 0n && frequency < timeout)
      throw serviceError("invalidRepeatedFreq", `repeated frequency [${frequency}] must not be less than timeout [${timeout}]`);
    const total = BigInt(fieldText(msg.repeated_total, "0"));
    if (total < -1n || total === 0n) throw serviceError("invalidRepeatedTotal", `repeated total number [${total}] must be greater than 0 or equal to -1`);
  }
}

/** ValidateRequestContextUpdating (MsgUpdateRequestContext). */
export function checkRequestContextUpdate(msg: ProtoMessage, providers: string[]): void {
  if (providers.length > MAX_PROVIDERS) throw serviceError("invalidProviders", `total number of the providers must not be greater than ${MAX_PROVIDERS}`);
  if (providers.length > 0) checkDuplicateProviders(providers);
  if (coinsFromProto(msg.service_fee_cap).length > 0) checkServiceFeeCap(msg.service_fee_cap);
  const timeout = BigInt(fieldText(msg.timeout, "0"));
  const frequency = BigInt(fieldText(msg.repeated_frequency, "0"));
  const total = BigInt(fieldText(msg.repeated_total, "0"));
  if (timeout < 0n) throw serviceError("invalidTimeout", `timeout must not be less than 0: ${timeout}`);
  if (timeout !== 0n && frequency !== 0n && frequency < timeout)
    throw serviceError("invalidRepeatedFreq", `frequency [${frequency}] must not be less than timeout [${timeout}]`);
  if (total < -1n) throw serviceError("invalidRepeatedFreq", `repeated total number must not be less than -1: ${total}`);
}

function checkServiceFeeCap(cap: unknown): void {
  const coins = coinsFromProto(cap);
  if (!coinsAreValid(coins)) throw sdkError("invalidRequest", `invalid service fee cap: ${formatCoins(coins)}`);
}

function checkDuplicateProviders(providers: string[]): void {
  if (new Set(providers).size !== providers.length) throw serviceError("invalidProviders", "there exists duplicate providers");
}

function checkInput(input: unknown): void {
  const text = fieldText(input);
  if (text === "") throw serviceError("invalidRequestInput", "input missing");
  if (inputDocumentError(text)) throw serviceError("invalidRequestInput", "invalid input");
}

export function checkContextId(id: unknown): void {
  const text = fieldText(id);
  if (text.length !== CONTEXT_ID_HEX_LENGTH)
    throw serviceError("invalidRequestContextId", `length of the request context ID must be ${CONTEXT_ID_HEX_LENGTH} in bytes`);
  if (!decodeHex(text)) throw serviceError("invalidRequestContextId", "request context ID must be a hex encoded string");
}

export function checkRequestId(id: unknown): void {
  const text = fieldText(id);
  if (text.length !== REQUEST_ID_HEX_LENGTH) throw serviceError("invalidRequestId", `length of the request ID must be ${REQUEST_ID_HEX_LENGTH}`);
  if (!decodeHex(text)) throw serviceError("invalidRequestId", "request ID must be a hex encoded string");
}

const RESULT_OK = 200;

/** ValidateResponseResult, ParseResult and ValidateOutput of MsgRespondService; returns the result code. */
export function checkResponse(result: unknown, output: unknown): number {
  const resultText = fieldText(result);
  if (resultText === "") throw serviceError("invalidResponseResult", "result missing");
  const error = resultDocumentError(resultText);
  if (error) throw serviceError("invalidResponseResult", error);
  const code = Number((JSON.parse(resultText) as { code: number }).code);
  const outputText = fieldText(output);
  if (code === RESULT_OK && outputText === "") throw serviceError("invalidResponse", `output must be specified when the result code is ${RESULT_OK}`);
  if (code !== RESULT_OK && outputText !== "") throw serviceError("invalidResponse", `output should not be specified when the result code is not ${RESULT_OK}`);
  if (outputText !== "" && outputDocumentError(outputText)) throw serviceError("invalidResponse", "invalid output");
  return code;
}
