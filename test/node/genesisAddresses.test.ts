import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { decodeBech32Address, encodeBech32Address } from "../../src/codec/bech32.js";
import { GenesisAddresses } from "../../src/node/genesisAddresses.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const errorOf = (decode: () => unknown) => {
  try {
    decode();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("no error");
};

describe("a genesis import's addresses, decoded once", () => {
  it("gives the bytes bech32 decoding gives, a copy each time, for many addresses of both lengths", () => {
    const addresses = new GenesisAddresses("hub");
    const list = Array.from({ length: 5000 }, (_, i) => encodeBech32Address("hub", randomBytes(i % 3 === 0 ? 32 : 20)));
    for (const round of [0, 1]) {
      for (const address of list) {
        const bytes = addresses.decode(address, "hub", "address");
        expect(hex(bytes), `${round} ${address}`).to.equal(hex(decodeBech32Address(address, "hub", "address")));
        bytes.fill(0); // the caller's copy
      }
    }
  });

  it("throws bech32's own errors, naming the field, and checks the prefix even for an address it has seen", () => {
    const addresses = new GenesisAddresses("hub");
    const good = encodeBech32Address("hub", randomBytes(20));
    addresses.decode(good, "hub", "accounts[0].address");
    for (const [address, prefix] of [
      [good.slice(0, -1) + (good.endsWith("q") ? "p" : "q"), "hub"],
      ["", "hub"],
      [good, "cosmos"],
      [encodeBech32Address("cosmos", randomBytes(20)), "hub"],
    ] as const) {
      expect(errorOf(() => addresses.decode(address, prefix, "balances[7].address"))).to.equal(
        errorOf(() => decodeBech32Address(address, prefix, "balances[7].address")),
      );
    }
  });
});
