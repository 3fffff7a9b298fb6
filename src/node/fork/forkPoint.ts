import type { StatusResult } from "../../client/chainClient.js";
import { utf8 } from "../store/moduleStore.js";
import type { StateBatch, VersionedStore } from "../store/versionedStore.js";
import type { Coin } from "../modules/bank/keeper.js";
import { ForkError } from "./remoteState.js";

/** `start --fork`: the remote node, the height, and the local accounts to fund. */
export interface ForkOptions {
  /** The remote node's RPC URL. */
  url: string;
  /** The forked height; the remote's latest when absent. */
  height?: number;
  /** Accounts given coins in the fork's first version (minted: the supply rises with them). */
  fund: FundEntry[];
  /** The fork's chain id; the remote's when absent. */
  chainId?: string;
  /** `--fork-validator`: the account operating this node's own validator, which alone signs the fork's blocks (forkValidator.ts). */
  validatorOperator?: string;
}

export interface FundEntry {
  address: string;
  coins: Coin[];
}

/** What a fork keeps of its remote in the store's metadata, so that a later start forks the same state. */
export interface ForkPoint {
  url: string;
  height: number;
  /** The remote's chain id and block time at the forked height. */
  remoteChainId: string;
  time: string;
}

const FORK_KEY = utf8("fork");

/** The calls a fork makes on its remote at startup. */
export interface ForkRemoteInfo {
  status(): Promise<StatusResult>;
  block(height?: number): Promise<Record<string, unknown>>;
}

/** The remote's chain id and block time at the forked height (its latest when none is asked). */
export async function readForkPoint(remote: ForkRemoteInfo, url: string, height?: number): Promise<ForkPoint> {
  const status = await remote.status().catch((err: unknown) => {
    throw new ForkError(`fork: the remote ${url} does not answer status: ${(err as Error).message}`);
  });
  const latest = Number(status.sync_info.latest_block_height);
  const at = height ?? latest;
  if (at > latest) throw new ForkError(`fork: the remote ${url} is at height ${latest}, below --fork-height ${at}`);
  const block = (await remote.block(at).catch((err: unknown) => {
    throw new ForkError(`fork: the remote ${url} does not answer block ${at}: ${(err as Error).message}`);
  })) as { block?: { header?: { chain_id?: string; time?: string } } };
  const header = block.block?.header;
  if (!header?.time || !header.chain_id) throw new ForkError(`fork: the remote ${url} has no block at height ${at}`);
  return { url, height: at, remoteChainId: header.chain_id, time: header.time };
}

export async function storedForkPoint(store: VersionedStore): Promise<ForkPoint | undefined> {
  const stored = await store.getMeta(FORK_KEY);
  return stored ? (JSON.parse(new TextDecoder().decode(stored)) as ForkPoint) : undefined;
}

export function putForkPoint(batch: StateBatch, point: ForkPoint): void {
  batch.putMeta(FORK_KEY, utf8(JSON.stringify(point)));
}

/** Bounds of `--fork-fund`: an address, then coins; each coin an amount of up to 40 digits and a denom. */
const FUND_PATTERN = /^([a-z0-9]{1,90})=(.{1,2000})$/;
const COIN_PATTERN = /^(\d{1,40})([a-zA-Z][a-zA-Z0-9/:._-]{1,127})$/;

/** `--fork-fund <address>=<coins>`, coins as "100uhub,5uiris". */
export function parseForkFund(text: string): FundEntry {
  const match = FUND_PATTERN.exec(text);
  if (!match) throw new ForkError(`--fork-fund ${JSON.stringify(text.slice(0, 100))}: expected <address>=<coins>, e.g. iaa1...=1000000uhub`);
  const coins = match[2]!.split(",").map((part) => {
    const coin = COIN_PATTERN.exec(part.trim());
    if (!coin) throw new ForkError(`--fork-fund: ${JSON.stringify(part.slice(0, 100))} is not a coin (amount then denom, e.g. 1000000uhub)`);
    return { denom: coin[2]!, amount: BigInt(coin[1]!) };
  });
  return { address: match[1]!, coins };
}
