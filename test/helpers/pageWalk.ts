import { expect } from "chai";
import type { HttpAnswer } from "./http.js";

/**
 * Every item of a gateway list route, one per page: in key mode (next_key, total never counted)
 * and in offset mode (count_total), each page checked on the way.
 */
export async function walkPages(
  get: (route: string) => Promise<HttpAnswer>,
  route: string,
  listKey: string,
): Promise<{ byKey: unknown[]; byOffset: unknown[] }> {
  const join = route.includes("?") ? "&" : "?";
  const byKey: unknown[] = [];
  let key: string | null = null;
  let pages = 0;
  do {
    const r: HttpAnswer = await get(`${route}${join}pagination.limit=1${key ? `&pagination.key=${encodeURIComponent(key)}` : ""}`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body[listKey]).to.have.length(1);
    expect(r.body.pagination.total).to.equal("0"); // never counted in key mode
    byKey.push(...r.body[listKey]);
    key = r.body.pagination.next_key;
    pages++;
  } while (key && pages < 20);
  const byOffset: unknown[] = [];
  for (let offset = 0; offset < byKey.length; offset++) {
    const r = await get(`${route}${join}pagination.limit=1&pagination.offset=${offset}&pagination.count_total=true`);
    expect(r.body.pagination.total).to.equal(String(byKey.length));
    expect(r.body.pagination.next_key === null).to.equal(offset === byKey.length - 1);
    byOffset.push(...r.body[listKey]);
  }
  return { byKey, byOffset };
}
