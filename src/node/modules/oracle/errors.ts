import { errorTable } from "../shared/errorTable.js";

/** The registered errors of the oracle module (codespace "oracle"), irismod v1.3.1 modules/oracle/types/errors.go. */
export const oracleError = errorTable("oracle", {
  unknownFeedName: [2, "unknown feed"],
  invalidFeedName: [3, "invalid feed name"],
  existedFeedName: [4, "feed already exists"],
  unauthorized: [5, "unauthorized owner"],
  invalidServiceName: [6, "invalid service name"],
  invalidDescription: [7, "invalid description"],
  notRegisterFunc: [8, "method don't register"],
  invalidFeedState: [9, "invalid state feed"],
  invalidServiceFeeCap: [10, "service fee cap is invalid"],
});
