import type { DevGenesisContext } from "../devGenesisContext.js";
import { devAddress, devTxHash } from "../shared/devAddresses.js";
import { lowerHex } from "../shared/hexBytes.js";
import { randomRequestId } from "./keys.js";

const DIGITS = 20; // RandPrec: the random number is a fraction with 20 decimals

/**
 * One random number already produced (requested by account 7) and two requests
 * waiting in the queue, from accounts 8 and 9, due at heights 101 and 201.
 */
export function randomDevGenesis(ctx: DevGenesisContext): unknown {
  const request = (account: number, label: string) => ({
    height: "1",
    consumer: devAddress(ctx, account),
    tx_hash: lowerHex(devTxHash(`${ctx.chainId}/request_random/${label}`)),
    oracle: false,
    service_fee_cap: [],
    service_context_id: "",
  });
  const produced = request(7, "produced");
  return {
    pending_random_requests: {
      "101": { requests: [request(8, "pending-1")] },
      "201": { requests: [request(9, "pending-2")] },
    },
    randoms: {
      [lowerHex(randomRequestId(1n, produced.consumer))]: {
        request_tx_hash: produced.tx_hash,
        height: "1",
        value: fraction(devTxHash(`${ctx.chainId}/random`)),
      },
    },
  };
}

/** A number in [0, 1) with 20 decimals, from the first 8 bytes of a hash. */
function fraction(hash: Uint8Array): string {
  const numerator = new DataView(hash.buffer, hash.byteOffset).getBigUint64(0);
  return `0.${((numerator * 10n ** BigInt(DIGITS)) >> 64n).toString().padStart(DIGITS, "0")}`;
}
