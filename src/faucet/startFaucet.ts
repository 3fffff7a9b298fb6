import type { ChainClient } from "../client/chainClient.js";
import type { Codec } from "../codec/codec.js";
import type { AppConfig } from "../config/appConfig.js";
import { parseDurationSetting } from "../config/tomlConfig.js";
import type { RunningServer } from "../util/runningServer.js";
import { readDevAccounts } from "../commands/home.js";
import type { Coin } from "./faucetSender.js";

/** The faucet of app.toml's [faucet], funded from a dev account of the home; undefined when faucet.enable is false. */
export async function startFaucet(
  home: string,
  app: AppConfig,
  client: ChainClient,
  codec: Codec,
  chainId: string,
  nodeUrl: string,
): Promise<RunningServer | undefined> {
  const config = app.faucet;
  if (!config.enable) return undefined;
  // loaded only when enabled: cosmjs's wallet and signing are large, and most starts run no faucet
  const [{ FaucetSender }, { startFaucetServer }] = await Promise.all([import("./faucetSender.js"), import("./faucetServer.js")]);
  const dev = readDevAccounts(home);
  if (!dev) throw new Error("faucet.enable needs the dev accounts of `init` (config/dev-accounts.json) to fund the faucet");
  const sender = await FaucetSender.open({
    client,
    codec,
    chainId,
    prefix: app["bech32-prefix"],
    mnemonic: dev.mnemonic,
    index: config.account,
    fee: FaucetSender.feeAt(app["minimum-gas-prices"]),
  });
  const amounts: Coin[] = config.amounts.split(",").map((text) => {
    const [, amount, denom] = /^(\d+)(.+)$/.exec(text)!;
    return { denom: denom!, amount: amount! };
  });
  return startFaucetServer(
    { address: config.address, amounts, cooldownMs: parseDurationSetting(config.cooldown), prefix: app["bech32-prefix"], chainId, nodeUrl },
    sender,
    client,
    codec,
  );
}
