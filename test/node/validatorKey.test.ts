import { expect } from "chai";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { initHome } from "../../src/commands/init.js";
import { loadValidatorKey } from "../../src/node/chain/validatorKey.js";
import { tempDir } from "../helpers/tempDir.js";

describe("validator key", () => {
  it("signs block commits with Ed25519: the signatures any implementation makes and verifies", () => {
    const home = path.join(tempDir(), "home");
    initHome({ home, chainId: "devnet-1", accounts: 4, denom: "uhub" });
    const key = loadValidatorKey(home);
    for (let i = 0; i < 20; i++) {
      const message = randomBytes(i * 11);
      const signature = key.sign(message);
      expect(signature).to.have.length(64);
      expect(ed25519.verify(signature, message, key.publicKey)).to.equal(true);
      expect(ed25519.verify(signature, Uint8Array.from([...message, 1]), key.publicKey)).to.equal(false);
    }
  });
});
