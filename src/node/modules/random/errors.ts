import { errorTable } from "../shared/errorTable.js";

/** The registered errors of the random module (codespace "random"), irismod v1.3.1 types/errors.go. */
export const randomError = errorTable("random", {
  invalidRequestId: [2, "invalid request id"],
  invalidHeight: [3, "invalid height, must be greater than 0"],
  noBindings: [4, "no service bindings available"],
  invalidContextId: [5, "invalid request context id"],
  invalidServiceFeeCap: [6, "invalid service fee cap"],
});
