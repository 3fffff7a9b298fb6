import type { ExecContext } from "../nodeModule.js";

/** message{module, sender}: what a module's msg server adds to the events of each Msg. */
export function emitModuleMessage(ctx: ExecContext, module: string, sender: string): void {
  ctx.emit({
    type: "message",
    attributes: [
      { key: "module", value: module },
      { key: "sender", value: sender },
    ],
  });
}

/** An extension module's own event of a Msg, then message{module, sender} (the irismod order). */
export function emitMsgEvent(ctx: ExecContext, module: string, sender: string, type: string, attributes: Record<string, string>): void {
  ctx.emit({ type, attributes: Object.entries(attributes).map(([key, value]) => ({ key, value })) });
  emitModuleMessage(ctx, module, sender);
}
