import { parseDec } from "../../../codec/decimal.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { ExecContext } from "../nodeModule.js";
import { moduleServiceOf } from "./callbacks.js";
import { documentError } from "./documentSchema.js";
import { serviceError } from "./errors.js";

/** The module that answers exchange rates (service/types/oracle_price.go RegisterModuleName) and its body schemas. */
const RATE_MODULE = "oracle";
const PAIR_BODY_SCHEMA = {
  type: "object",
  properties: { pair: { type: "string", pattern: "^[0-9a-zA-Z/]+-[0-9a-zA-Z/]+$" } },
  additionalProperties: false,
  required: ["pair"],
};
const RATE_BODY_SCHEMA = {
  type: "object",
  properties: { rate: { type: "string", pattern: "^(?:[1-9]+\\d*|0)(\\.\\d+)?$" } },
  additionalProperties: false,
  required: ["rate"],
};

/** gjson's Get(json, key).Uint() of a result: a number, or a numeric string ("400"). */
function field(json: string, key: string): unknown {
  try {
    return (JSON.parse(json) as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * GetExchangeRate (irismod v1.3.1 service/keeper/oracle_price.go): the rate of `priceDenom` in
 * `baseDenom` (a Dec) from the oracle module's "oracle-price" service, which reads the feed named
 * after the pair.
 */
export async function exchangeRate(ctx: ExecContext, priceDenom: string, baseDenom: string): Promise<bigint> {
  const service = moduleServiceOf(RATE_MODULE);
  if (!service) throw serviceError("invalidModuleService", `module service does not exist: ${RATE_MODULE}`);
  const inputBody = `{"pair":"${priceDenom}-${baseDenom}"}`;
  const inputError = documentError(PAIR_BODY_SCHEMA, inputBody);
  if (inputError) throw serviceError("invalidRequestInputBody", inputError);
  const { result, output } = await service.request(ctx, `{"header":{},"body":${inputBody}}`);
  const code = Number(fieldText(field(result, "code"), "0"));
  if (code !== 200) throw serviceError("invalidModuleService", fieldText(field(result, "message")));
  const outputBody = JSON.stringify(field(output, "body") ?? null);
  const outputError = documentError(RATE_BODY_SCHEMA, outputBody);
  if (outputError) throw serviceError("invalidResponseOutputBody", outputError);
  const rate = parseDec((JSON.parse(outputBody) as { rate: string }).rate);
  if (rate === 0n) throw serviceError("invalidResponseOutputBody", "rate can not be zero");
  return rate;
}
