import type { DevGenesisContext } from "../devGenesisContext.js";
import { days, devValidators } from "../shared/devValidators.js";

/** Signing infos of both dev validators: A signs (two recent misses), B is tombstoned for double signing. */
export function slashingDevGenesis(ctx: DevGenesisContext): unknown {
  const { a, b } = devValidators(ctx);
  return {
    params: {
      signed_blocks_window: "100",
      min_signed_per_window: "0.500000000000000000",
      downtime_jail_duration: "600s",
      slash_fraction_double_sign: "0.050000000000000000",
      slash_fraction_downtime: "0.010000000000000000",
    },
    signing_infos: [
      {
        address: a.consensusAddress,
        validator_signing_info: {
          address: a.consensusAddress,
          start_height: "0",
          index_offset: "42",
          jailed_until: new Date(ctx.genesisTime.getTime() - days(3)).toISOString(),
          tombstoned: false,
          missed_blocks_counter: "2",
        },
      },
      {
        address: b.consensusAddress,
        validator_signing_info: {
          address: b.consensusAddress,
          start_height: "0",
          index_offset: "0",
          jailed_until: "9999-12-31T23:59:59Z",
          tombstoned: true,
          missed_blocks_counter: "0",
        },
      },
    ],
    missed_blocks: [
      {
        address: a.consensusAddress,
        missed_blocks: [
          { index: "5", missed: true },
          { index: "17", missed: true },
        ],
      },
    ],
  };
}
