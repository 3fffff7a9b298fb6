import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import type { ExecContext } from "../nodeModule.js";
import { uint64Bytes } from "../../store/keyEncoding.js";
import { doneKey, PLAN_KEY, upgradedClientKey, upgradedConsStateKey } from "./keys.js";
import { checkClientStateType, lastConsensusState, upgradedClientState } from "./ibcPlan.js";
import { processLogger } from "../../../telemetry/processLogger.js";

const PLAN = "core.upgrade.v1beta1.Plan";
/** Go's zero time.Time as a Timestamp: a height plan stores it in its non-nullable `time`. */
const ZERO_TIME_SECONDS = -62135596800;

const unixSeconds = (time: unknown) => Number(fieldText((time as ProtoMessage | undefined)?.seconds, String(ZERO_TIME_SECONDS)));
const upgradeStore = (ctx: ExecContext) => ctx.storeOf("upgrade");

/** Plan.ValidateBasic (x/upgrade/types/plan.go), each sdk 18. */
export function validatePlan(plan: ProtoMessage): void {
  const height = BigInt(fieldText(plan.height, "0"));
  const hasTime = unixSeconds(plan.time) > 0;
  if (plan.upgraded_client_state) checkClientStateType(plan.upgraded_client_state as ProtoMessage);
  if (fieldText(plan.name) === "") throw sdkError("invalidRequest", "name cannot be empty");
  if (height < 0n) throw sdkError("invalidRequest", "height cannot be negative");
  if (!hasTime && height === 0n) throw sdkError("invalidRequest", "must set either time or height");
  if (hasTime && height !== 0n) throw sdkError("invalidRequest", "cannot set both time and height");
  if (hasTime && plan.upgraded_client_state) throw sdkError("invalidRequest", "IBC chain upgrades must only set height");
}

async function readPlan(ctx: ExecContext): Promise<ProtoMessage | undefined> {
  const bytes = await upgradeStore(ctx).get(PLAN_KEY);
  return bytes ? ctx.codec.type(PLAN).decode(bytes) : undefined;
}

/** keeper.ScheduleUpgrade: a plan in the future, under a name not yet applied, replaces any scheduled one. */
export async function scheduleUpgrade(ctx: ExecContext, plan: ProtoMessage): Promise<void> {
  validatePlan(plan);
  const hasTime = unixSeconds(plan.time) > 0;
  const past = hasTime ? unixSeconds(plan.time) * 1000 <= ctx.time.getTime() : BigInt(fieldText(plan.height, "0")) <= BigInt(ctx.height);
  if (past) throw sdkError("invalidRequest", "upgrade cannot be scheduled in the past");
  if (await upgradeStore(ctx).get(doneKey(fieldText(plan.name))))
    throw sdkError("invalidRequest", `upgrade with name ${fieldText(plan.name)} has already been completed`);
  // v0.41 clears the IBC state of a replaced plan one height below where it was written
  // (x/upgrade/keeper/keeper.go ClearIBCState(oldPlan.Height-1)); kept as the real chain does.
  const oldPlan = await readPlan(ctx);
  if (oldPlan?.upgraded_client_state) clearIbcState(ctx, BigInt(fieldText(oldPlan.height, "0")) - 1n);
  const stored = { ...plan, time: hasTime ? plan.time : { seconds: ZERO_TIME_SECONDS, nanos: 0 } };
  upgradeStore(ctx).set(PLAN_KEY, ctx.codec.type(PLAN).encode(stored).finish());
  if (plan.upgraded_client_state) {
    const client = upgradedClientState(ctx, plan.upgraded_client_state as ProtoMessage);
    upgradeStore(ctx).set(upgradedClientKey(BigInt(fieldText(plan.height, "0"))), client);
  }
}

function clearIbcState(ctx: ExecContext, lastHeight: bigint): void {
  upgradeStore(ctx).delete(upgradedClientKey(lastHeight));
  upgradeStore(ctx).delete(upgradedConsStateKey(lastHeight));
}

/** keeper.ClearUpgradePlan (a cancel proposal): never fails, even without a plan. */
export function clearUpgradePlan(ctx: ExecContext): void {
  upgradeStore(ctx).delete(PLAN_KEY);
}

/**
 * BeginBlock when the plan is due (its height reached, or its time passed). The real chain halts
 * here until a binary with a handler for the plan runs this block; the dev chain behaves as that
 * binary with a no-op handler: the plan is done at this height and cleared.
 */
export async function applyDuePlan(ctx: ExecContext): Promise<void> {
  const plan = await readPlan(ctx);
  if (!plan) return;
  const planHeight = BigInt(fieldText(plan.height, "0"));
  // The last block before an IBC plan's height records the consensus state that IBC clients of
  // the next chain version trust (SDK v0.41 x/upgrade/abci.go BeginBlocker), under the plan's height.
  if (plan.upgraded_client_state && BigInt(ctx.height) === planHeight - 1n) {
    upgradeStore(ctx).set(upgradedConsStateKey(planHeight), lastConsensusState(ctx));
  }
  const hasTime = unixSeconds(plan.time) > 0;
  const due = hasTime ? ctx.time.getTime() >= unixSeconds(plan.time) * 1000 : planHeight <= BigInt(ctx.height);
  if (!due) return;
  processLogger().info(`[upgrade] plan "${fieldText(plan.name)}" applied at height ${ctx.height} (the dev chain runs on instead of halting)`);
  // ApplyUpgrade clears the IBC state at Height-1, where v0.41 never wrote it: the states stay queryable.
  if (plan.upgraded_client_state) clearIbcState(ctx, planHeight - 1n);
  clearUpgradePlan(ctx);
  upgradeStore(ctx).set(doneKey(fieldText(plan.name)), uint64Bytes(ctx.height));
}
