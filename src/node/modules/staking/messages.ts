import type { MsgRoute } from "../nodeModule.js";
import { delegationMessages } from "./delegationMessages.js";
import { validatorMessages } from "./validatorMessages.js";

/** The Msgs of x/staking. */
export const stakingMessages: Record<string, MsgRoute> = { ...validatorMessages, ...delegationMessages };
