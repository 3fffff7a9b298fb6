import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { encodeBech32Address } from "../src/codec/bech32.js";
import { initHome } from "../src/commands/init.js";
import { addGenesisAccounts } from "../test/helpers/largeGenesis.js";

/**
 * A home whose genesis has `holders` funded accounts (each holds uhub) and
 * `delegations` delegations spread over `validators` validators (the dev
 * chain's two and unbonded ones with no tokens added, so the pools still
 * match), one delegation per genesis account in turn. The delegations are
 * written into the file piece by piece: the whole genesis is more text than
 * one JavaScript string may hold.
 */
export function boundedQueriesHome(dir: string, holders: number, delegations: number, validators: number): { home: string; operators: string[] } {
  const home = path.join(dir, "home");
  initHome({ home, chainId: "devnet-1", accounts: 10, denom: "uhub" });
  addGenesisAccounts(home, holders);
  const file = path.join(home, "config", "genesis.json");
  const genesis = JSON.parse(fs.readFileSync(file, "utf8"));
  const staking = genesis.app_state.staking as { validators: Array<Record<string, any>>; delegations: unknown };
  const template = staking.validators[0]!;
  while (staking.validators.length < validators) {
    const i = staking.validators.length;
    staking.validators.push({
      ...template,
      operator_address: encodeBech32Address("hubvaloper", randomBytes(20)),
      consensus_pubkey: { "@type": template.consensus_pubkey["@type"], key: randomBytes(32).toString("base64") },
      status: "BOND_STATUS_UNBONDED",
      jailed: false,
      tokens: "0",
      delegator_shares: "1000000.000000000000000000",
      description: { ...template.description, moniker: `bench-${i}` },
    });
  }
  const operators = staking.validators.map((v) => String(v.operator_address));
  const accounts = (genesis.app_state.auth.accounts as Array<{ address?: string }>).map((a) => a.address).filter((a): a is string => a !== undefined);
  const existing = staking.delegations as unknown[];
  staking.delegations = "__DELEGATIONS__";
  const [head, tail] = JSON.stringify(genesis).split('"__DELEGATIONS__"') as [string, string];
  const fd = fs.openSync(file, "w");
  fs.writeSync(fd, head);
  fs.writeSync(fd, `[${existing.map((d) => JSON.stringify(d)).join(",")}`);
  let separator = existing.length > 0 ? "," : "";
  const CHUNK = 10_000;
  for (let from = 0; from < delegations; from += CHUNK) {
    const parts: string[] = [];
    for (let i = from; i < Math.min(delegations, from + CHUNK); i++) {
      const delegator = accounts[10 + (i % (accounts.length - 10))]!; // past the dev accounts, which delegate in the dev genesis
      const validator = operators[i % operators.length]!;
      parts.push(`{"delegator_address":"${delegator}","validator_address":"${validator}","shares":"1000.000000000000000000"}`);
    }
    fs.writeSync(fd, `${separator}${parts.join(",")}`);
    separator = ",";
  }
  fs.writeSync(fd, `]${tail}`);
  fs.closeSync(fd);
  return { home, operators };
}
