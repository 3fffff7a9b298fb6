import { SigningStargateClient, type SigningStargateClientOptions } from "@cosmjs/stargate";
import type { OfflineSigner } from "@cosmjs/proto-signing";

/**
 * cosmjs waits `broadcastPollIntervalMs` (3 s by default) before each look for a broadcast tx;
 * the dev node commits a waiting tx at once, so tests look every 100 ms. The wait stays bounded
 * by cosmjs' `broadcastTimeoutMs` (60 s).
 */
const TEST_BROADCAST_POLL_MS = 100;

/** `SigningStargateClient.connectWithSigner` that finds its committed transactions without cosmjs' 3-second first wait. */
export function connectSigningClient(rpcUrl: string, signer: OfflineSigner, options: SigningStargateClientOptions = {}): Promise<SigningStargateClient> {
  return SigningStargateClient.connectWithSigner(rpcUrl, signer, { broadcastPollIntervalMs: TEST_BROADCAST_POLL_MS, ...options });
}
