import { DEC_PRECISION, parseDec } from "../../codec/decimal.js";

/** One minimum gas price as a fraction amount/scale per unit of gas. */
export interface MinGasPrice {
  denom: string;
  amount: bigint;
  scale: bigint;
}

/** app.toml minimum-gas-prices ("0.025uhub,1ugold") → prices. */
export function parseMinGasPrices(text: string): MinGasPrice[] {
  if (text.trim() === "") return [];
  return text.split(",").map((part) => {
    const match = /^(\d+(?:\.\d+)?)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/.exec(part.trim());
    if (!match) throw new Error(`invalid minimum gas price "${part}"`);
    return { denom: match[2]!, amount: parseDec(match[1]!), scale: 10n ** BigInt(DEC_PRECISION) };
  });
}
