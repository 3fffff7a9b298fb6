import { errorFromText, errorTable, type RegisteredError } from "../shared/errorTable.js";

/** The registered errors of the token module (codespace "token"), irismod v1.3.1 types/errors.go. */
const TOKEN_ERRORS = {
  invalidName: [2, "invalid token name"],
  invalidMinUnit: [3, "invalid token min unit"],
  invalidSymbol: [4, "invalid standard denom"],
  invalidInitSupply: [5, "invalid token initial supply"],
  invalidMaxSupply: [6, "invalid token maximum supply"],
  invalidScale: [7, "invalid token scale"],
  symbolExists: [8, "symbol already exists"],
  minUnitExists: [9, "min unit already exists"],
  tokenNotExists: [10, "token does not exist"],
  invalidToAddress: [11, "the new owner must not be same as the original owner"],
  invalidOwner: [12, "invalid token owner"],
  notMintable: [13, "token is not mintable"],
  notFoundTokenAmt: [14, "burned token amount not found"],
  invalidAmount: [15, "invalid amount"],
  invalidBaseFee: [16, "invalid base fee"],
} as const satisfies Record<string, RegisteredError>;

export const tokenError = errorTable("token", TOKEN_ERRORS);

/** A validation text of validation.ts ("<detail>: <registered description>") as the error it names. */
export const tokenErrorFromText = (text: string) => errorFromText("token", TOKEN_ERRORS, text);
