import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { DAY, shifted, useStartedStakingDevChain } from "../../../helpers/stakingDevChain.js";

/** protobuf varint, for encoding the evidence by hand. */
function varint(value: bigint): number[] {
  const out: number[] = [];
  do {
    let byte = Number(value & 0x7fn);
    value >>= 7n;
    if (value > 0n) byte |= 0x80;
    out.push(byte);
  } while (value > 0n);
  return out;
}

/** The proto bytes of the dev chain's Equivocation, written out field by field. */
function equivocationBytes(time: Date, consensusAddress: string): Uint8Array {
  const ms = time.getTime();
  const timestamp = [0x08, ...varint(BigInt(Math.floor(ms / 1000)))];
  if (ms % 1000 !== 0) timestamp.push(0x10, ...varint(BigInt((ms % 1000) * 1_000_000)));
  const address = [...new TextEncoder().encode(consensusAddress)];
  return Uint8Array.from([0x08, 0x01, 0x12, timestamp.length, ...timestamp, 0x18, ...varint(10000n), 0x22, address.length, ...address]);
}

/** The evidence routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: evidence routes", function () {
  this.timeout(120_000);
  const { chain, ok, fails } = useStartedStakingDevChain();

  const at = (days: number) => shifted(chain.genesisTime, days * DAY);

  const equivocation = () => ({
    "@type": "/core.evidence.v1beta1.Equivocation",
    height: "1",
    time: at(-2),
    power: "10000",
    consensus_address: chain.b.consensusAddress,
  });

  it("lists all evidence", async () => {
    expect(await ok("/core/evidence/v1beta1/evidence")).to.deep.equal({ evidence: [equivocation()], pagination: { next_key: null, total: "1" } });
  });

  it("serves evidence by the SHA-256 of its proto bytes, base64 in the path; 404 for another hash", async () => {
    const hash = Buffer.from(sha256(equivocationBytes(new Date(chain.genesisTime.getTime() - 2 * DAY), chain.b.consensusAddress)));
    expect(await ok(`/core/evidence/v1beta1/evidence/${encodeURIComponent(hash.toString("base64"))}`)).to.deep.equal({ evidence: equivocation() });
    expect(await ok(`/core/evidence/v1beta1/evidence/${hash.toString("base64url")}`)).to.deep.equal({ evidence: equivocation() });
    const other = Buffer.alloc(32, 7);
    await fails(
      `/core/evidence/v1beta1/evidence/${encodeURIComponent(other.toString("base64"))}`,
      404,
      `evidence ${other.toString("hex").toUpperCase()} not found`,
    );
  });
});
