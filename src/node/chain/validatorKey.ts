import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { consensusAddressBytes } from "../../codec/addresses.js";

/** DER prefix of a PKCS#8 Ed25519 private key (the 32-byte seed follows). */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** The node's consensus key (config/priv_validator_key.json): it signs the commits of the blocks it makes. */
export interface ValidatorKey {
  /** Uppercase hex consensus address. */
  address: string;
  publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

export function loadValidatorKey(home: string): ValidatorKey {
  const file = path.join(home, "config", "priv_validator_key.json");
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as { priv_key: { value: string } };
  const full = Buffer.from(json.priv_key.value, "base64"); // seed ‖ public key
  const seed = new Uint8Array(full.subarray(0, 32));
  // Signed by OpenSSL (one signature per block; Ed25519 is deterministic: the same bytes as any implementation).
  const privateKey = crypto.createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
  // derived by OpenSSL too: a JavaScript curve's first use builds its tables, which a start need not pay for
  const publicKey = new Uint8Array(crypto.createPublicKey(privateKey).export({ format: "der", type: "spki" }).subarray(-32));
  return {
    address: Buffer.from(consensusAddressBytes(publicKey)).toString("hex").toUpperCase(),
    publicKey,
    sign: (message) => new Uint8Array(crypto.sign(null, message, privateKey)),
  };
}

/** The node's p2p id: the lowercase hex address of config/node_key.json. */
export function loadNodeId(home: string): string {
  const file = path.join(home, "config", "node_key.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { address: string }).address.toLowerCase();
}
