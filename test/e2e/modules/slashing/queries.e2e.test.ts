import { expect } from "chai";
import { bech32 } from "bech32";
import { DAY, byAddressBytes, shifted, useStartedStakingDevChain } from "../../../helpers/stakingDevChain.js";

/** The slashing routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: slashing routes", function () {
  this.timeout(120_000);
  const { chain, ok, fails } = useStartedStakingDevChain();

  const at = (days: number) => shifted(chain.genesisTime, days * DAY);

  const infoA = () => ({
    address: chain.a.consensusAddress,
    start_height: "0",
    index_offset: "42",
    jailed_until: at(-3),
    tombstoned: false,
    missed_blocks_counter: "2",
  });
  const infoB = () => ({
    address: chain.b.consensusAddress,
    start_height: "0",
    index_offset: "0",
    jailed_until: "9999-12-31T23:59:59Z",
    tombstoned: true,
    missed_blocks_counter: "0",
  });

  it("serves the params", async () => {
    expect(await ok("/core/slashing/v1beta1/params")).to.deep.equal({
      params: {
        signed_blocks_window: "100",
        min_signed_per_window: "0.500000000000000000",
        downtime_jail_duration: "600s",
        slash_fraction_double_sign: "0.050000000000000000",
        slash_fraction_downtime: "0.010000000000000000",
      },
    });
  });

  it("lists the signing infos over two pages and serves one; 404 for an unknown address", async () => {
    const expected = byAddressBytes([infoA(), infoB()], (i) => i.address);
    expect(await ok("/core/slashing/v1beta1/signing_infos")).to.deep.equal({ info: expected, pagination: { next_key: null, total: "2" } });
    const page1 = await ok("/core/slashing/v1beta1/signing_infos?pagination.limit=1");
    expect(page1.info).to.deep.equal([expected[0]]);
    const page2 = await ok(`/core/slashing/v1beta1/signing_infos?pagination.limit=1&pagination.key=${encodeURIComponent(page1.pagination.next_key)}`);
    expect(page2).to.deep.equal({ info: [expected[1]], pagination: { next_key: null, total: "0" } });
    expect(await ok(`/core/slashing/v1beta1/signing_infos/${chain.a.consensusAddress}`)).to.deep.equal({ val_signing_info: infoA() });
    const unknown = bech32.encode("hubvalcons", bech32.toWords(new Uint8Array(20).fill(9)));
    await fails(`/core/slashing/v1beta1/signing_infos/${unknown}`, 404, `SigningInfo not found for validator ${unknown}`);
    await fails(`/core/slashing/v1beta1/signing_infos/${chain.a.operator}`, 400, "expected hubvalcons");
  });
});
