import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import { coinsFromProto } from "../bank/keeper.js";
import { spendFromCommunityPool } from "../distribution/communityPoolSpend.js";
import { distributionError } from "../distribution/errors.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { ExecContext, ModuleContext } from "../nodeModule.js";
import { isParamKeyError } from "../shared/aminoParams.js";
import { panicError } from "../shared/errorTable.js";
import { govError, paramsError } from "./errors.js";
import { fieldText } from "../../../codec/fieldText.js";
import { clearUpgradePlan, scheduleUpgrade, validatePlan } from "../upgrade/keeper.js";
import { neutralTypeUrl } from "../../../codec/typeRegistry.js";

/** The proposal contents this chain knows (gov v1beta1 Content implementations), with their checks and handlers. */
export interface ContentKind {
  /** Content.ProposalType() */
  proposalType: string;
  /** Content.ValidateBasic() beyond the title and description. */
  validate(content: ProtoMessage): void;
  /** The route's proposal handler; throws a TxError when the content cannot be executed. */
  execute(ctx: ExecContext, content: ProtoMessage): Promise<void>;
}

const MAX_TITLE = 140;
const MAX_DESCRIPTION = 5000;

const CONTENT_KINDS: Record<string, ContentKind> = {
  "core.gov.v1beta1.TextProposal": {
    proposalType: "Text",
    validate() {},
    async execute() {},
  },
  "core.params.v1beta1.ParameterChangeProposal": {
    proposalType: "ParameterChange",
    validate(content) {
      const changes = (content.changes ?? []) as ProtoMessage[];
      if (changes.length === 0) throw paramsError("emptyChanges");
      for (const change of changes) {
        if (fieldText(change.subspace) === "") throw paramsError("emptySubspace");
        if (fieldText(change.key) === "") throw paramsError("emptyKey");
        if (fieldText(change.value) === "") throw paramsError("emptyValue");
      }
    },
    execute: applyParameterChanges,
  },
  "core.upgrade.v1beta1.SoftwareUpgradeProposal": {
    proposalType: "SoftwareUpgrade",
    validate: (content) => validatePlan((content.plan ?? {}) as ProtoMessage),
    execute: (ctx, content) => scheduleUpgrade(ctx, (content.plan ?? {}) as ProtoMessage),
  },
  "core.upgrade.v1beta1.CancelSoftwareUpgradeProposal": {
    proposalType: "CancelSoftwareUpgrade",
    validate() {},
    async execute(ctx) {
      clearUpgradePlan(ctx);
    },
  },
  "core.distribution.v1beta1.CommunityPoolSpendProposal": {
    proposalType: "CommunityPoolSpend",
    validate(content) {
      const coins = coinsFromProto(content.amount);
      const valid = coins.every((c, i) => DENOM_PATTERN.test(c.denom) && c.amount > 0n && (i === 0 || coins[i - 1]!.denom < c.denom));
      if (!valid) throw distributionError("invalidProposalAmount");
      if (fieldText(content.recipient) === "") throw distributionError("emptyProposalRecipient");
    },
    execute: spendFromCommunityPool,
  },
};

/** Unpacks a proposal's content Any; an unknown type is refused as the real tx decoder refuses it. */
export function decodeContent(any: unknown, ctx: ModuleContext): { kind: ContentKind; content: ProtoMessage } {
  const typeUrl = fieldText((any as ProtoMessage | undefined)?.type_url);
  const kind = CONTENT_KINDS[neutralTypeUrl(typeUrl).replace(/^\//, "")];
  if (!kind) throw sdkError("txDecode", `no concrete type registered for type URL ${typeUrl} against interface *types.Content`);
  const content = ctx.codec.type(typeUrl.slice(1)).decode(((any as ProtoMessage).value as Uint8Array) ?? new Uint8Array()) as unknown as ProtoMessage;
  return { kind, content };
}

/** Content.ValidateBasic: ValidateAbstract (title and description) and the kind's own checks. */
export function validateContent(kind: ContentKind, content: ProtoMessage): void {
  const title = fieldText(content.title);
  if (title.trim() === "") throw govError("invalidProposalContent", "proposal title cannot be blank");
  if (Buffer.byteLength(title) > MAX_TITLE) throw govError("invalidProposalContent", `proposal title is longer than max length of ${MAX_TITLE}`);
  const description = fieldText(content.description);
  if (description.length === 0) throw govError("invalidProposalContent", "proposal description cannot be blank");
  if (Buffer.byteLength(description) > MAX_DESCRIPTION)
    throw govError("invalidProposalContent", `proposal description is longer than max length of ${MAX_DESCRIPTION}`);
  kind.validate(content);
}

/**
 * The params proposal handler: each change goes through its subspace's
 * Update (amino JSON over the current value, then the subspace's validation).
 * A key the subspace does not have makes the real Update panic.
 */
async function applyParameterChanges(ctx: ExecContext, content: ProtoMessage): Promise<void> {
  for (const change of (content.changes ?? []) as ProtoMessage[]) {
    const subspace = String(change.subspace);
    const key = String(change.key);
    const value = String(change.value);
    const owner = ctx.paramSubspaces.get(subspace);
    if (!owner) throw paramsError("unknownSubspace", subspace);
    if (!owner.params.update)
      throw paramsError("settingParameter", `key: ${key}, value: ${value}, err: parameter changes of subspace ${subspace} are not supported by this node`);
    try {
      await owner.params.update(ctx.storeOf(owner.module), key, value, ctx);
    } catch (err) {
      if (isParamKeyError(err)) throw panicError(`parameter ${key} not registered`);
      throw paramsError("settingParameter", `key: ${key}, value: ${value}, err: ${(err as Error).message}`);
    }
  }
}
