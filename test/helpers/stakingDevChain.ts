import fs from "node:fs";
import path from "node:path";
import { bech32 } from "bech32";
import { sha256 } from "@noble/hashes/sha2.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { readDevAccounts } from "../../src/commands/home.js";
import { useStartedDevChain, type StartedDevChain } from "./startedDevChain.js";
import { proto3JsonTime } from "./timeText.js";

/**
 * What the staking, slashing, distribution, evidence and gov e2e tests know
 * of a freshly initialised dev chain: the dev accounts, the two validators
 * and the genesis time, read from the home folder and derived independently.
 */
export interface DevChain {
  accounts: string[];
  genesisTime: Date;
  a: DevValidatorInfo;
  b: DevValidatorInfo;
}

interface DevValidatorInfo {
  account: string;
  operator: string;
  consensusKey: string;
  consensusAddress: string;
  consensusAddressBytes: Uint8Array;
}

const convert = (address: string, prefix: string) => bech32.encode(prefix, bech32.decode(address).words);
const bytesOf = (address: string) => Uint8Array.from(bech32.fromWords(bech32.decode(address).words));

function validatorInfo(account: string, publicKey: Uint8Array): DevValidatorInfo {
  const consensusAddressBytes = sha256(publicKey).subarray(0, 20);
  return {
    account,
    operator: convert(account, "hubvaloper"),
    consensusKey: Buffer.from(publicKey).toString("base64"),
    consensusAddress: bech32.encode("hubvalcons", bech32.toWords(consensusAddressBytes)),
    consensusAddressBytes,
  };
}

export function readDevChain(home: string): DevChain {
  const accounts = readDevAccounts(home)!.accounts.map((a) => a.address);
  const genesis = JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8")) as { genesis_time: string };
  const key = JSON.parse(fs.readFileSync(path.join(home, "config", "priv_validator_key.json"), "utf8")) as { pub_key: { value: string } };
  return {
    accounts,
    genesisTime: new Date(genesis.genesis_time),
    a: validatorInfo(accounts[0]!, Buffer.from(key.pub_key.value, "base64")),
    b: validatorInfo(accounts[2]!, ed25519.getPublicKey(sha256(new TextEncoder().encode("validator-b")))),
  };
}

export const DAY = 86_400_000;
export const shifted = (date: Date, ms: number) => proto3JsonTime(date.getTime() + ms);

/** Sorts bech32 addresses as the store orders their (length-prefixed, equally long) bytes. */
export function byAddressBytes<T>(items: T[], address: (item: T) => string): T[] {
  return [...items].sort((x, y) => Buffer.compare(Buffer.from(bytesOf(address(x))), Buffer.from(bytesOf(address(y)))));
}

/**
 * A started dev chain of 5 accounts for the enclosing describe block, with
 * what the tests know of it: `chain` and `acc` are filled in before the tests run.
 */
export function useStartedStakingDevChain(): StartedDevChain & { chain: DevChain; acc: string[] } {
  const started = useStartedDevChain({ accounts: 5 });
  const chain = {} as DevChain;
  const acc: string[] = [];
  before(() => {
    Object.assign(chain, readDevChain(started.home));
    acc.push(...chain.accounts);
  });
  return { ...started, chain, acc };
}
