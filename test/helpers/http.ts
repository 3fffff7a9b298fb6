export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** One HTTP request; the body is parsed as JSON when it is JSON. */
export async function http(url: string, init: RequestInit = {}): Promise<HttpAnswer> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}
