/**
 * An error that fails a transaction with a registered code, as the real
 * system's errors.Wrap: the log is "<wrap message>: <description>".
 */
export class TxError extends Error {
  constructor(
    readonly codespace: string,
    readonly code: number,
    readonly description: string,
    readonly detail?: string,
  ) {
    super(detail ? `${detail}: ${description}` : description);
  }

  /** errors.Wrap: another layer of context in front of the log. */
  wrap(context: string): TxError {
    return new TxError(this.codespace, this.code, this.description, this.detail ? `${context}: ${this.detail}` : context);
  }
}

/** The SDK error registry (codespace "sdk"), v0.41. */
const SDK = {
  txDecode: [2, "tx parse error"],
  invalidSequence: [3, "invalid sequence"],
  unauthorized: [4, "unauthorized"],
  insufficientFunds: [5, "insufficient funds"],
  unknownRequest: [6, "unknown request"],
  invalidAddress: [7, "invalid address"],
  invalidPubKey: [8, "invalid pubkey"],
  unknownAddress: [9, "unknown address"],
  invalidCoins: [10, "invalid coins"],
  outOfGas: [11, "out of gas"],
  memoTooLarge: [12, "memo too large"],
  insufficientFee: [13, "insufficient fee"],
  tooManySignatures: [14, "maximum number of signatures exceeded"],
  noSignatures: [15, "no signatures supplied"],
  invalidRequest: [18, "invalid request"],
  txInMempoolCache: [19, "tx already in mempool"],
  mempoolIsFull: [20, "mempool is full"],
  txTooLarge: [21, "tx too large"],
  keyNotFound: [22, "key not found"],
  invalidSigner: [24, "tx intended signer does not match the given signer"],
  invalidHeight: [26, "invalid height"],
  invalidVersion: [27, "invalid version"],
  invalidChainId: [28, "invalid chain-id"],
  invalidType: [29, "invalid type"],
  txTimeoutHeight: [30, "tx timeout height"],
  unknownExtensionOptions: [31, "unknown extension options"],
  wrongSequence: [32, "incorrect account sequence"],
  packAny: [33, "failed packing protobuf message to Any"],
  unpackAny: [34, "failed unpacking protobuf message from Any"],
  logic: [35, "internal logic error"],
  conflict: [36, "conflict"],
  notSupported: [37, "feature not supported"],
} as const;

export type SdkErrorName = keyof typeof SDK;

/** An SDK error with the given wrap message: sdkError("insufficientFunds", "5uhub is smaller than 10uhub"). */
export function sdkError(name: SdkErrorName, detail?: string): TxError {
  const [code, description] = SDK[name];
  return new TxError("sdk", code, description, detail);
}

/** A module's own registered error (codespace = module name), e.g. staking 3 "validator does not exist". */
export function moduleError(codespace: string, code: number, description: string, detail?: string): TxError {
  return new TxError(codespace, code, description, detail);
}
