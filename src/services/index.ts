import type { ServiceMethod } from "./serviceMethod.js";

/**
 * Implementations of the methods that are not ABCI queries, by method path.
 * The tx service and the consensus service join here with the transactions issue.
 */
export const SERVICE_METHODS: ReadonlyMap<string, ServiceMethod> = new Map();
