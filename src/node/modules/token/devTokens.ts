/**
 * The tokens of the development genesis, shared by the token module (which
 * lists them and funds their holders) and coinswap (whose pool holds part of
 * the first one), so that every coin of their supply is accounted for.
 */
export interface DevToken {
  symbol: string;
  name: string;
  scale: number;
  min_unit: string;
  /** In main units, as MsgIssueToken takes it. */
  initial_supply: bigint;
  max_supply: bigint;
  mintable: boolean;
  /** Index of the dev account that issued and owns it. */
  owner: number;
  /** Min-unit coins of it burned since issue. */
  burned: bigint;
  /** Min-unit coins of it deposited into its coinswap pool by the owner. */
  pooled: bigint;
}

export const DEV_TOKENS: DevToken[] = [
  {
    symbol: "cat",
    name: "Cat Coin",
    scale: 6,
    min_unit: "ucat",
    initial_supply: 1_000_000n,
    max_supply: 2_000_000n,
    mintable: true,
    owner: 0,
    burned: 250_000_000n,
    pooled: 5_000_000_000n,
  },
  {
    symbol: "dog",
    name: "Dog Token",
    scale: 3,
    min_unit: "mdog",
    initial_supply: 500_000n,
    max_supply: 500_000n,
    mintable: false,
    owner: 1,
    burned: 0n,
    pooled: 0n,
  },
];

/** The coins of a token its owner still holds: the initial supply less what was burned and pooled. */
export function ownerHolding(token: DevToken): bigint {
  return token.initial_supply * 10n ** BigInt(token.scale) - token.burned - token.pooled;
}

/** The coinswap pool of the development genesis: its token, its standard-denom reserve and the liquidity minted for it. */
export const DEV_POOL = {
  token: DEV_TOKENS[0]!,
  standardReserve: 1_000_000_000n,
  /** The first deposit mints liquidity equal to the standard amount deposited. */
  liquidity: 1_000_000_000n,
  /** Index of the dev account that provided the liquidity. */
  provider: 0,
};
