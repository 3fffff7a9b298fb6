/**
 * x/params and x/upgrade keep no genesis state in SDK v0.41 (their app_state
 * entries are `null` and `{}`), and the protos have no GenesisState message for
 * them. An empty message of the same package family parses such an entry: any
 * field in it is ignored, as the real app ignores it.
 */
export const NO_GENESIS_STATE = "core.upgrade.v1beta1.QueryCurrentPlanRequest";
