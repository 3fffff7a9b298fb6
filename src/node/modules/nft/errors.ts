import { errorFromText, errorTable, type RegisteredError } from "../shared/errorTable.js";

/** The registered errors of the nft module (codespace "nft"), irismod v1.3.1 types/errors.go. */
const NFT_ERRORS = {
  invalidCollection: [2, "invalid nft collection"],
  unknownCollection: [3, "unknown nft collection"],
  invalidNft: [4, "invalid nft"],
  nftAlreadyExists: [5, "nft already exists"],
  unknownNft: [6, "unknown nft"],
  emptyTokenData: [7, "nft data can't be empty"],
  unauthorized: [8, "unauthorized address"],
  invalidDenom: [9, "invalid denom"],
  invalidTokenId: [10, "invalid nft id"],
  invalidTokenUri: [11, "invalid nft uri"],
  invalidDenomName: [12, "invalid denom name"],
} as const satisfies Record<string, RegisteredError>;

export const nftError = errorTable("nft", NFT_ERRORS);

/** A validation text of validation.ts as the error it names. */
export const nftErrorFromText = (text: string) => errorFromText("nft", NFT_ERRORS, text);
