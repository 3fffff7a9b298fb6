import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { bech32 } from "bech32";
import { decodeBech32Address, encodeBech32Address } from "../../src/codec/bech32.js";
import { decodeLowercaseBech32 } from "../../src/codec/bech32Lowercase.js";

const hex = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString("hex") : "-");

/** The bech32 package's answer (bytes or error), as decodeBech32Address gave it before the fast path. */
function packageAnswer(value: string, prefix: string): string {
  try {
    const decoded = bech32.decode(value, 1023);
    const bytes = Uint8Array.from(bech32.fromWords(decoded.words));
    return decoded.prefix === prefix && bytes.length > 0 && bytes.length <= 255 ? hex(bytes) : "refused";
  } catch {
    return "refused";
  }
}

function answer(value: string, prefix: string): string {
  try {
    return hex(decodeBech32Address(value, prefix, "address"));
  } catch (err) {
    const message = (err as Error).message;
    // the message is the package's own: decodeBech32Address falls back to it
    expect(message).to.match(/^(invalid address|address cannot be empty)/);
    return "refused";
  }
}

describe("bech32 decoding's fast path for lowercase addresses", () => {
  const prefixes = ["hub", "cosmos", "a1b", "x"];
  const valid = prefixes.flatMap((prefix) => [0, 1, 19, 20, 32, 33, 64].map((length) => ({ prefix, value: encodeBech32Address(prefix, randomBytes(length)) })));

  it("gives the bytes the bech32 package gives, and refuses what it refuses, for valid addresses and each one-character change", () => {
    const alphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l1bioQPZ!~ \u00e9";
    let fast = 0;
    for (const { prefix, value } of valid) {
      const variants = [value, value.toUpperCase(), value.slice(0, -1), `${value}q`, value.replace(prefix, prefix.toUpperCase()), `x${value}`];
      for (let i = 0; i < value.length; i += 3) variants.push(value.slice(0, i) + alphabet[(i * 7) % alphabet.length] + value.slice(i + 1));
      for (const variant of variants) {
        for (const expected of [prefix, "hub", ""]) {
          expect(answer(variant, expected), `${variant} (${expected})`).to.equal(packageAnswer(variant, expected));
          if (decodeLowercaseBech32(variant, expected)) fast++;
        }
      }
    }
    expect(fast).to.be.greaterThan(valid.length); // the fast path did answer
  });

  it("leaves a too long or a short string to the package", () => {
    const longest = encodeBech32Address("hub", randomBytes(600)); // 970 characters
    expect(answer(longest, "hub")).to.equal(packageAnswer(longest, "hub")); // more than 255 bytes
    const long = `hub1${"q".repeat(1020)}`;
    expect(decodeLowercaseBech32(long, "hub")).to.equal(undefined);
    expect(answer(long, "hub")).to.equal("refused");
    expect(decodeLowercaseBech32("hub1qqq", "hub")).to.equal(undefined);
  });
});
