import { errorTable } from "../shared/errorTable.js";

/** The registered errors of the hub's guardian module (codespace "guardian"), irishub v1.0.0 types/errors.go. */
export const guardianError = errorTable("guardian", {
  unknownOperator: [2, "unknown operator"],
  unknownSuper: [3, "unknown super"],
  superExists: [4, "super already exists"],
  deleteGenesisSuper: [5, "can't delete genesis super"],
});
