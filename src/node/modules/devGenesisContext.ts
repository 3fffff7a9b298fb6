/** A coin in genesis JSON. */
export interface GenesisCoin {
  denom: string;
  amount: string;
}

export interface DevAccount {
  index: number;
  address: string;
  /** 33-byte compressed secp256k1 key. */
  publicKey: Uint8Array;
}

/**
 * What a module's development genesis is built from. Modules contribute
 * module accounts and balances here; auth and bank are built last from them,
 * so that the supply always adds up.
 */
export interface DevGenesisContext {
  chainId: string;
  prefix: string;
  /** The base denom (uhub). */
  denom: string;
  genesisTime: Date;
  /** The funded development accounts, account i at m/44'/118'/0'/0/i. */
  accounts: DevAccount[];
  /** The single validator's ed25519 consensus public key (32 bytes), from priv_validator_key.json. */
  consensusPublicKey: Uint8Array;
  /** Registers a module account (auth) and returns its address. */
  moduleAccount(name: string, permissions: string[]): string;
  /** Adds coins to an address's genesis balance. */
  fund(address: string, coins: GenesisCoin[]): void;
  /** Registers a plain account (BaseAccount) for an address that is not a dev or module account, e.g. a pool's reserve. */
  account(address: string): void;
  readonly otherAccounts: ReadonlyArray<string>;
  /** Module accounts and balances gathered so far (read by auth and bank, which are built last). */
  readonly moduleAccounts: ReadonlyArray<{ name: string; address: string; permissions: string[] }>;
  readonly balances: ReadonlyMap<string, ReadonlyMap<string, bigint>>;
}
