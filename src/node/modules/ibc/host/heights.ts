import Long from "long";
import type { ModuleContext } from "../../nodeModule.js";
import { fieldText } from "../../../../codec/fieldText.js";

/** ibc.core.client.v1.Height as it travels in decoded messages. */
export interface Height {
  revision_number?: Long | number | string;
  revision_height?: Long | number | string;
}

/** One part of a height (revision number or height) as a bigint; unset is 0. */
export const heightPart = (value: unknown) => BigInt(fieldText(value, "0"));
const big = heightPart;

/** "{revision}-{height}", the text of a height in store keys and messages. */
export function formatHeight(height: Height): string {
  return `${big(height.revision_number)}-${big(height.revision_height)}`;
}

export function parseHeight(text: string): { revision_number: Long; revision_height: Long } {
  const match = /^(\d+)-(\d+)$/.exec(text);
  if (!match) throw new Error(`expected height string format: {revision}-{height}. Got: ${text}`);
  return { revision_number: Long.fromString(match[1]!, true), revision_height: Long.fromString(match[2]!, true) };
}

export function heightOf(revisionNumber: bigint, revisionHeight: bigint): { revision_number: Long; revision_height: Long } {
  return { revision_number: Long.fromString(revisionNumber.toString(), true), revision_height: Long.fromString(revisionHeight.toString(), true) };
}

export function isZeroHeight(height: Height): boolean {
  return big(height.revision_number) === 0n && big(height.revision_height) === 0n;
}

/** The revision of a chain id of the form "{name}-{revision}" ("devnet-1" → 1); 0 for any other form. */
export function revisionOfChainId(chainId: string): bigint {
  if (!/^.*[^-]-[1-9][0-9]*$/.test(chainId)) return 0n;
  return BigInt(chainId.slice(chainId.lastIndexOf("-") + 1));
}

/**
 * GetSelfHeight of the real keepers: this chain's revision and the queried
 * height. The real queries answer it as proof_height (and `height`) and leave the proof empty.
 */
export function selfHeight(ctx: ModuleContext & { height: number }) {
  return heightOf(revisionOfChainId(ctx.chain.chainId), BigInt(ctx.height));
}

/** Height.GTE: a later revision, or the same revision and a height at least as high. */
export function heightGTE(a: Height, b: Height): boolean {
  const [ra, rb] = [big(a.revision_number), big(b.revision_number)];
  return ra !== rb ? ra > rb : big(a.revision_height) >= big(b.revision_height);
}

/** Go's %d of a clienttypes.Height value: "{1 1200}". */
export function heightStruct(height: Height): string {
  return `{${big(height.revision_number)} ${big(height.revision_height)}}`;
}
