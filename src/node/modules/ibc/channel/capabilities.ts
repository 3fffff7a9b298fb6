import { fieldText } from "../../../../codec/fieldText.js";
import type { ExecContext } from "../../nodeModule.js";
import { capabilityError } from "../host/coreErrors.js";
import { channelKey } from "../host/hostPaths.js";
import { PORT_KEY } from "../transfer/store.js";

/**
 * The x/capability rules the IBC Msgs meet, as far as this node needs them. Only the transfer
 * module binds a port (its genesis port_id, "ports/{port}"); a channel's capability
 * ("capabilities/ports/{port}/channels/{channel}") exists with the channel on a bound port,
 * created by ChanOpenInit and claimed by the port's module, as in the real app. So the owner
 * module of any capability found is "transfer".
 */
const LOOKUP_FAILED = "could not retrieve module from port-id";

async function boundPort(ctx: ExecContext): Promise<string | undefined> {
  const bytes = await ctx.storeOf("transfer").get(PORT_KEY);
  return bytes ? new TextDecoder().decode(bytes) : undefined;
}

/** PortKeeper.LookupModuleByPort: the module that owns the port. */
export async function lookupModuleByPort(ctx: ExecContext, portId: string): Promise<string> {
  if ((await boundPort(ctx)) !== portId) throw capabilityError("capabilityNotFound", `${LOOKUP_FAILED}: ports/${portId}`);
  return "transfer";
}

/** ChannelKeeper.LookupModuleByChannel: the module that owns the channel's capability. */
export async function lookupModuleByChannel(ctx: ExecContext, portId: unknown, channelId: unknown): Promise<string> {
  const [port, channel] = [fieldText(portId), fieldText(channelId)];
  const exists = (await boundPort(ctx)) === port && (await ctx.storeOf("ibc").get(channelKey(port, channel))) !== undefined;
  if (!exists) throw capabilityError("capabilityNotFound", `${LOOKUP_FAILED}: capabilities/ports/${port}/channels/${channel}`);
  return "transfer";
}
