import protobuf from "protobufjs";
import { sha256 } from "@noble/hashes/sha2.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import type { ProtoMessage } from "../json/renderProto3.js";
import { aminoPrefix, concat } from "./aminoBinary.js";
import { fieldText } from "../fieldText.js";
import { lookupType, neutralTypeUrl } from "../typeRegistry.js";

/** A public key Any the address derivation does not know. */
export class UnknownKeyTypeError extends Error {}

/**
 * The account address of a public key Any, as the chain derives it:
 * RIPEMD-160(SHA-256(key)) for secp256k1, the first 20 bytes of SHA-256(key)
 * for ed25519, and for a legacy multisig the first 20 bytes of SHA-256 of its
 * amino binary. Those amino bytes keep the real system's key names
 * ("tendermint/..."), so that a multisig has the address it has on a real chain.
 */
export function pubKeyAddress(root: protobuf.Root, any: ProtoMessage): Uint8Array {
  const key = (type: string) =>
    (lookupType(root, type).decode((any.value as Uint8Array) ?? new Uint8Array()) as unknown as { key?: Uint8Array }).key ?? new Uint8Array();
  switch (neutralTypeUrl(any.type_url)) {
    case "/core.crypto.secp256k1.PubKey":
      return ripemd160(sha256(key("core.crypto.secp256k1.PubKey")));
    case "/core.crypto.ed25519.PubKey":
      return sha256(key("core.crypto.ed25519.PubKey")).subarray(0, 20);
    case "/core.crypto.multisig.LegacyAminoPubKey":
      return sha256(multisigAminoBytes(root, any)).subarray(0, 20);
    default:
      throw new UnknownKeyTypeError(`unsupported public key type ${fieldText(any.type_url, "(none)")}`);
  }
}

const REAL_NAMES: Record<string, string> = {
  "/core.crypto.secp256k1.PubKey": "tendermint/PubKeySecp256k1",
  "/core.crypto.ed25519.PubKey": "tendermint/PubKeyEd25519",
  "/core.crypto.multisig.LegacyAminoPubKey": "tendermint/PubKeyMultisigThreshold",
};

function multisigAminoBytes(root: protobuf.Root, any: ProtoMessage): Uint8Array {
  const multi = lookupType(root, "core.crypto.multisig.LegacyAminoPubKey").decode(any.value as Uint8Array) as unknown as {
    threshold?: number;
    public_keys?: ProtoMessage[];
  };
  const writer = protobuf.Writer.create();
  writer.uint32(8).uint32(multi.threshold ?? 0);
  for (const inner of multi.public_keys ?? []) writer.uint32(18).bytes(keyAminoBytes(root, inner));
  return concat(aminoPrefix(REAL_NAMES["/core.crypto.multisig.LegacyAminoPubKey"]!), writer.finish());
}

function keyAminoBytes(root: protobuf.Root, any: ProtoMessage): Uint8Array {
  const name = REAL_NAMES[neutralTypeUrl(any.type_url)];
  if (!name) throw new UnknownKeyTypeError(`unsupported public key type ${fieldText(any.type_url, "(none)")}`);
  if (neutralTypeUrl(any.type_url) === "/core.crypto.multisig.LegacyAminoPubKey") return multisigAminoBytes(root, any);
  const type = lookupType(root, String(any.type_url).slice(1));
  const key = (type.decode(any.value as Uint8Array) as unknown as { key?: Uint8Array }).key ?? new Uint8Array();
  return concat(aminoPrefix(name), protobuf.Writer.create().bytes(key).finish());
}
