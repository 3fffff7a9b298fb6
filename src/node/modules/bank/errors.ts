import { errorTable } from "../shared/errorTable.js";

/** The registered errors of x/bank (codespace "bank"), v0.41 types/errors.go. */
export const bankError = errorTable("bank", {
  noInputs: [2, "no inputs to send transaction"],
  noOutputs: [3, "no outputs to send transaction"],
  inputOutputMismatch: [4, "sum inputs != sum outputs"],
  sendDisabled: [5, "send transactions are disabled"],
});
