import { sha256 } from "@noble/hashes/sha2.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import { devAddress, devTxHash } from "../shared/devAddresses.js";
import { lowerHex, upperHex } from "../shared/hexBytes.js";
import { utf8 } from "../../store/moduleStore.js";

/** One record by account 0: the digest of a document and where to find it. */
export function recordDevGenesis(ctx: DevGenesisContext): unknown {
  return {
    records: [
      {
        tx_hash: upperHex(devTxHash(`${ctx.chainId}/create_record/0`)),
        contents: [
          {
            digest: lowerHex(sha256(utf8(`the ${ctx.chainId} development chain`))),
            digest_algo: "sha256",
            uri: "https://example.com/dev-record.txt",
            meta: "a sample record of the development genesis",
          },
        ],
        creator: devAddress(ctx, 0),
      },
    ],
  };
}
