import http from "node:http";
import getRawBody from "raw-body";
import type { ChainClient } from "../client/chainClient.js";
import type { Codec } from "../codec/codec.js";
import { decodeBech32Address } from "../codec/bech32.js";
import { profileTypeUrl } from "../codec/typeRegistry.js";
import { listenServer } from "../util/listenServer.js";
import type { RunningServer } from "../util/runningServer.js";
import { Cooldowns } from "./cooldowns.js";
import type { Coin, FaucetSender } from "./faucetSender.js";
import { processLogger } from "../telemetry/processLogger.js";

/** A credit request is a small JSON object; larger bodies are answered 413. */
const MAX_BODY_BYTES = 4096;

export interface FaucetOptions {
  address: string;
  /** What one credit gives, per denom. */
  amounts: Coin[];
  cooldownMs: number;
  prefix: string;
  chainId: string;
  nodeUrl: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The HTTP API of @cosmjs/faucet: GET /status (chain, tokens, the holder's
 * balance), POST /credit {address, denom} (answered "ok" once the send is
 * accepted into the mempool), GET / and /healthz (a welcome text), with its
 * statuses and texts: 400 for a bad body or address, 405 for a GET of
 * /credit and within an address's cooldown, 415 for another content type,
 * 422 for a denom the faucet does not give, 500 when the send fails.
 */
export async function startFaucetServer(options: FaucetOptions, sender: FaucetSender, client: ChainClient, codec: Codec): Promise<RunningServer> {
  const cooldowns = new Cooldowns(options.cooldownMs);
  const amountOf = new Map(options.amounts.map((coin) => [coin.denom, coin]));

  const holderBalance = async (): Promise<Coin[]> => {
    const request = codec.type("core.bank.v1beta1.QueryAllBalancesRequest").encode({ address: sender.address }).finish();
    const answer = await client.abciQuery(profileTypeUrl("/core.bank.v1beta1.Query/AllBalances"), request);
    const type = codec.type("core.bank.v1beta1.QueryAllBalancesResponse");
    return (type.toObject(type.decode(answer.value)) as { balances?: Coin[] }).balances ?? [];
  };
  const availableTokens = async () => {
    const balance = await holderBalance();
    return options.amounts.filter((want) => balance.some((b) => b.denom === want.denom && BigInt(b.amount) >= BigInt(want.amount))).map((c) => c.denom);
  };

  async function answer(req: http.IncomingMessage): Promise<{ status: number; body: unknown }> {
    const path = new URL(req.url ?? "/", "http://faucet").pathname;
    if (path === "/" || path === "/healthz")
      return {
        status: 200,
        body: "Welcome to the faucet!\n\nCheck the full status via the /status endpoint.\nYou can get tokens from here by POSTing to /credit.\n",
      };
    if (path === "/status") {
      return {
        status: 200,
        body: {
          status: "ok",
          nodeUrl: options.nodeUrl,
          chainId: options.chainId,
          chainTokens: options.amounts.map((c) => c.denom),
          availableTokens: await availableTokens(),
          holder: { address: sender.address, balance: await holderBalance() },
          distributors: [],
        },
      };
    }
    if (path !== "/credit") return { status: 404, body: "Not Found" };
    if (req.method !== "POST") throw new HttpError(405, "This endpoint requires a POST request");
    const { address, denom } = parseCreditBody(await readJson(req));
    try {
      decodeBech32Address(address, options.prefix, "address");
    } catch {
      throw new HttpError(400, "Address is not in the expected format for this chain.");
    }
    if (!cooldowns.take(address)) {
      throw new HttpError(
        405,
        `Too many requests for the same address. Blocked to prevent draining. Please wait ${options.cooldownMs / 1000} seconds and try it again!`,
      );
    }
    const coin = amountOf.get(denom);
    const available = await availableTokens();
    if (!coin || !available.includes(denom)) {
      cooldowns.release(address);
      throw new HttpError(422, `Token is not available. Available tokens are: ${available.join(",")}`);
    }
    try {
      await sender.send(address, coin);
    } catch (err) {
      cooldowns.release(address);
      processLogger().error(`[faucet] ${(err as Error).message}`);
      throw new HttpError(500, "Sending tokens failed");
    }
    return { status: 200, body: "ok" };
  }

  const server = http.createServer((req, res) => {
    const headers = { "access-control-allow-origin": "*" };
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...headers, "access-control-allow-methods": "GET,POST", "access-control-allow-headers": "content-type" }).end();
      return;
    }
    answer(req)
      .catch((err: unknown) => (err instanceof HttpError ? { status: err.status, body: err.message } : { status: 500, body: "Internal Server Error" }))
      .then(({ status, body }) => {
        const json = typeof body !== "string";
        res.writeHead(status, { ...headers, "content-type": json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8" });
        res.end(json ? JSON.stringify(body) : body);
      })
      .catch(() => res.destroy());
  });
  return listenServer(server, options.address);
}

/**
 * The body as JSON. application/json as the real faucet requires, and also
 * text/plain: @cosmjs/faucet-client posts its JSON with fetch and no content
 * type, which fetch sends as text/plain (the real faucet answers that 415 and
 * the client does not look at the status, so its credit silently fails).
 */
async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json" && type !== "text/plain") throw new HttpError(415, "Content-type application/json expected");
  let text: string;
  try {
    text = await getRawBody(req, { limit: MAX_BODY_BYTES, encoding: "utf8" });
  } catch {
    throw new HttpError(413, `Request body larger than ${MAX_BODY_BYTES} bytes`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Request body must be a dictionary.");
  }
}

/** @cosmjs/faucet's request parser: the same checks and texts. */
function parseCreditBody(body: unknown): { address: string; denom: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new HttpError(400, "Request body must be a dictionary.");
  const { address, denom, ticker } = body as Record<string, unknown>;
  if (ticker !== undefined) throw new HttpError(400, "The 'ticker' field was removed in CosmJS 0.23. Please use 'denom' instead.");
  if (typeof address !== "string") throw new HttpError(400, "Property 'address' must be a string.");
  if (address.length === 0) throw new HttpError(400, "Property 'address' must not be empty.");
  if (typeof denom !== "string") throw new HttpError(400, "Property 'denom' must be a string.");
  if (denom.length === 0) throw new HttpError(400, "Property 'denom' must not be empty.");
  return { address, denom };
}
