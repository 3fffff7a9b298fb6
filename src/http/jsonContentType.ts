/**
 * The Content-Type of every JSON answer: what Koa's `ctx.type = "application/json"`
 * sets, without the mime-types lookup it makes on every answer.
 */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
