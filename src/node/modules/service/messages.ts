import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { coinsFromProto } from "../bank/keeper.js";
import type { ExecContext, MsgRoute } from "../nodeModule.js";
import { decodeHex, upperHex } from "../shared/hexBytes.js";
import { bech32Bytes } from "../shared/msgAddresses.js";
import { emitMsgEvent } from "../shared/msgEvents.js";
import { addResponse } from "./batches.js";
import { moduleServiceNamed } from "./callbacks.js";
import { callModuleService } from "./moduleServiceCall.js";
import { addBinding, disableBinding, enableBinding, refundDeposit, updateBinding, type BindingSettings } from "./bindings.js";
import { serviceError } from "./errors.js";
import { withdrawEarnedFees } from "./fees.js";
import { checkAuthority, createRequestContext, killRequestContext, pauseRequestContext, startRequestContext, updateRequestContext } from "./requestContexts.js";
import * as store from "./store.js";
import { RUNNING } from "./store.js";
import * as check from "./validation.js";

const text = (value: unknown) => fieldText(value);
const num = (value: unknown) => Number(fieldText(value, "0"));
const emit = (ctx: ExecContext, sender: string, type: string, attributes: Record<string, string>) => emitMsgEvent(ctx, "service", sender, type, attributes);

function bindingSettings(msg: ProtoMessage): BindingSettings {
  return {
    serviceName: text(msg.service_name),
    provider: text(msg.provider),
    deposit: coinsFromProto(msg.deposit),
    pricing: text(msg.pricing),
    qos: num(msg.qos),
    options: text(msg.options),
    owner: text(msg.owner),
  };
}

/** A binding Msg's ValidateBasic head: provider, owner, service name. */
function checkBindingMsg(msg: ProtoMessage, prefix: string): void {
  check.checkAddress(msg.provider, prefix, "provider");
  check.checkAddress(msg.owner, prefix, "owner");
  check.checkServiceName(msg.service_name);
}

/** The handlers' hex.DecodeString of an id (ValidateBasic has checked it). */
const idBytes = (value: unknown) => decodeHex(text(value)) ?? new Uint8Array();

/** A binding event (create/update/disable/enable/refund) then message{module: service, sender: owner}. */
const bindingEvent = (ctx: ExecContext, msg: ProtoMessage, type: string) =>
  emit(ctx, text(msg.owner), type, { service_name: text(msg.service_name), provider: text(msg.provider), owner: text(msg.owner) });

/** A context Msg (pause/start/kill/update): consumer and id checked, the consumer's own non-module context only. */
const contextMsg = (action: string, event: string, run: (msg: ProtoMessage, ctx: ExecContext, id: Uint8Array) => Promise<void>): MsgRoute => ({
  action,
  signers: (msg) => [text(msg.consumer)],
  validateBasic(msg, chain) {
    check.checkAddress(msg.consumer, chain.bech32Prefix, "consumer");
    check.checkContextId(msg.request_context_id);
  },
  async handler(msg, ctx) {
    const id = idBytes(msg.request_context_id);
    await checkAuthority(ctx, text(msg.consumer), id, true);
    await run(msg, ctx, id);
    emit(ctx, text(msg.consumer), event, { request_context_id: text(msg.request_context_id), consumer: text(msg.consumer) });
    return {};
  },
});

/**
 * The service module's Msgs (irismod v1.3.1 modules/service: types/msgs.go for ValidateBasic,
 * keeper/msg_server.go for the handlers and events, keeper/binding.go, invocation.go and fees.go
 * for the rules). The request batches themselves run in the EndBlock (blocks.ts).
 */
export const serviceMessages: Record<string, MsgRoute> = {
  "extmod.service.MsgDefineService": {
    action: "define_service",
    signers: (msg) => [text(msg.author)],
    validateBasic(msg, chain) {
      check.checkAddress(msg.author, chain.bech32Prefix, "author");
      check.checkServiceName(msg.name);
      check.checkDescriptions(msg.description, msg.author_description);
      check.checkTags(msg.tags);
      check.checkServiceSchemas(msg.schemas);
    },
    async handler(msg, ctx) {
      const name = text(msg.name);
      if (await store.getDefinition(ctx, name)) throw serviceError("serviceDefinitionExists", name);
      store.setDefinition(ctx, {
        name,
        description: text(msg.description),
        tags: msg.tags ?? [],
        author: text(msg.author),
        author_description: text(msg.author_description),
        schemas: text(msg.schemas),
      });
      emit(ctx, text(msg.author), "create_definition", { service_name: name, author: text(msg.author) });
      return {};
    },
  },

  "extmod.service.MsgBindService": {
    action: "bind_service",
    signers: (msg) => [text(msg.owner)],
    validateBasic(msg, chain) {
      checkBindingMsg(msg, chain.bech32Prefix);
      check.checkDeposit(msg.deposit);
      check.checkQoS(msg.qos);
      check.checkOptions(msg.options);
      check.checkPricing(msg.pricing);
    },
    async handler(msg, ctx) {
      // a module's own service (the oracle module's "oracle-price") has no provider accounts
      if (moduleServiceNamed(text(msg.service_name))) throw serviceError("bindModuleService", `module service ${text(msg.service_name)}`);
      await addBinding(ctx, bindingSettings(msg));
      bindingEvent(ctx, msg, "create_binding");
      return {};
    },
  },

  "extmod.service.MsgUpdateServiceBinding": {
    action: "update_service_binding",
    signers: (msg) => [text(msg.owner)],
    validateBasic(msg, chain) {
      checkBindingMsg(msg, chain.bech32Prefix);
      if (coinsFromProto(msg.deposit).length > 0) check.checkDeposit(msg.deposit);
      if (text(msg.options) !== "") check.checkOptions(msg.options);
      if (text(msg.pricing) !== "") check.checkPricing(msg.pricing);
    },
    async handler(msg, ctx) {
      await updateBinding(ctx, bindingSettings(msg));
      bindingEvent(ctx, msg, "update_binding");
      return {};
    },
  },

  "extmod.service.MsgSetWithdrawAddress": {
    action: "set_withdraw_address",
    signers: (msg) => [text(msg.owner)],
    validateBasic(msg, chain) {
      check.checkAddress(msg.owner, chain.bech32Prefix, "owner");
      check.checkAddress(msg.withdraw_address, chain.bech32Prefix, "withdrawal");
    },
    handler(msg, ctx) {
      store.setWithdrawAddress(ctx, store.providerBytes(ctx, text(msg.owner)), store.providerBytes(ctx, text(msg.withdraw_address)));
      emit(ctx, text(msg.owner), "set_withdraw_address", { owner: text(msg.owner), withdraw_address: text(msg.withdraw_address) });
      return Promise.resolve({});
    },
  },

  "extmod.service.MsgDisableServiceBinding": {
    action: "disable_service_binding",
    signers: (msg) => [text(msg.owner)],
    validateBasic: (msg, chain) => checkBindingMsg(msg, chain.bech32Prefix),
    async handler(msg, ctx) {
      await disableBinding(ctx, text(msg.service_name), text(msg.provider), text(msg.owner));
      bindingEvent(ctx, msg, "disable_binding");
      return {};
    },
  },

  "extmod.service.MsgEnableServiceBinding": {
    action: "enable_service_binding",
    signers: (msg) => [text(msg.owner)],
    validateBasic(msg, chain) {
      checkBindingMsg(msg, chain.bech32Prefix);
      if (coinsFromProto(msg.deposit).length > 0) check.checkDeposit(msg.deposit);
    },
    async handler(msg, ctx) {
      await enableBinding(ctx, text(msg.service_name), text(msg.provider), coinsFromProto(msg.deposit), text(msg.owner));
      bindingEvent(ctx, msg, "enable_binding");
      return {};
    },
  },

  "extmod.service.MsgRefundServiceDeposit": {
    action: "refund_service_deposit",
    signers: (msg) => [text(msg.owner)],
    validateBasic: (msg, chain) => checkBindingMsg(msg, chain.bech32Prefix),
    async handler(msg, ctx) {
      await refundDeposit(ctx, text(msg.service_name), text(msg.provider), text(msg.owner));
      bindingEvent(ctx, msg, "refund_deposit");
      return {};
    },
  },

  "extmod.service.MsgCallService": {
    action: "call_service",
    signers: (msg) => [text(msg.consumer)],
    validateBasic(msg, chain) {
      check.checkAddress(msg.consumer, chain.bech32Prefix, "consumer");
      check.checkRequest(msg, check.providerList(msg.providers, chain.bech32Prefix));
    },
    async handler(msg, ctx) {
      const moduleService = moduleServiceNamed(text(msg.service_name));
      const id = moduleService
        ? await callModuleService(ctx, moduleService, text(msg.consumer), text(msg.input), coinsFromProto(msg.service_fee_cap))
        : await createRequestContext(ctx, {
            serviceName: text(msg.service_name),
            providers: ((msg.providers ?? []) as unknown[]).map(text),
            consumer: text(msg.consumer),
            input: text(msg.input),
            serviceFeeCap: coinsFromProto(msg.service_fee_cap),
            timeout: num(msg.timeout),
            repeated: msg.repeated === true,
            repeatedFrequency: num(msg.repeated_frequency),
            repeatedTotal: num(msg.repeated_total),
            state: RUNNING,
            responseThreshold: 0,
            moduleName: "",
          });
      emit(ctx, text(msg.consumer), "create_context", {
        request_context_id: upperHex(id),
        service_name: text(msg.service_name),
        consumer: text(msg.consumer),
      });
      return { request_context_id: upperHex(id) };
    },
  },

  "extmod.service.MsgRespondService": {
    action: "respond_service",
    signers: (msg) => [text(msg.provider)],
    validateBasic(msg, chain) {
      check.checkAddress(msg.provider, chain.bech32Prefix, "provider");
      check.checkRequestId(msg.request_id);
      check.checkResponse(msg.result, msg.output);
    },
    async handler(msg, ctx) {
      const provider = text(msg.provider);
      const { request, context } = await addResponse(ctx, idBytes(msg.request_id), provider, text(msg.result), text(msg.output));
      emit(ctx, provider, "respond_service", {
        request_context_id: request.request_context_id,
        request_id: text(msg.request_id),
        service_name: context.service_name,
        provider: request.provider,
        consumer: context.consumer,
      });
      return {};
    },
  },

  "extmod.service.MsgPauseRequestContext": contextMsg("pause_request_context", "pause_context", (msg, ctx, id) =>
    pauseRequestContext(ctx, id, text(msg.consumer)),
  ),
  "extmod.service.MsgStartRequestContext": contextMsg("start_request_context", "start_context", (msg, ctx, id) =>
    startRequestContext(ctx, id, text(msg.consumer)),
  ),
  "extmod.service.MsgKillRequestContext": contextMsg("kill_request_context", "kill_context", (msg, ctx, id) => killRequestContext(ctx, id, text(msg.consumer))),

  "extmod.service.MsgUpdateRequestContext": {
    ...contextMsg("update_request_context", "update_context", (msg, ctx, id) =>
      updateRequestContext(
        ctx,
        id,
        {
          providers: ((msg.providers ?? []) as unknown[]).map(text),
          responseThreshold: 0,
          serviceFeeCap: coinsFromProto(msg.service_fee_cap),
          timeout: num(msg.timeout),
          repeatedFrequency: num(msg.repeated_frequency),
          repeatedTotal: num(msg.repeated_total),
        },
        text(msg.consumer),
      ),
    ),
    validateBasic(msg, chain) {
      check.checkAddress(msg.consumer, chain.bech32Prefix, "consumer");
      check.checkContextId(msg.request_context_id);
      check.checkRequestContextUpdate(msg, check.providerList(msg.providers, chain.bech32Prefix));
    },
  },

  "extmod.service.MsgWithdrawEarnedFees": {
    action: "withdraw_earned_fees",
    signers: (msg) => [text(msg.owner)],
    validateBasic: (msg, chain) => check.checkAddress(msg.owner, chain.bech32Prefix, "owner"),
    async handler(msg, ctx) {
      const owner = bech32Bytes(msg.owner, ctx.chain.bech32Prefix);
      // the handler decodes the provider as AccAddressFromBech32 does: an empty one is refused too
      const provider = bech32Bytes(msg.provider, ctx.chain.bech32Prefix);
      await withdrawEarnedFees(ctx, owner, provider);
      emit(ctx, text(msg.owner), "withdraw_earned_fees", { provider: text(msg.provider), owner: text(msg.owner) });
      return {};
    },
  },
};
