/** The legacy POST /service/bindings body the e2e flows send: `provider` binds `serviceName` at 1uhub a call, 5000uhub deposited. */
export function serviceBinding(serviceName: string, provider: string): Record<string, unknown> {
  return {
    service_name: serviceName,
    provider,
    deposit: "5000uhub",
    pricing: JSON.stringify({ price: "1uhub" }),
    qos: "1",
    options: "{}",
    owner: provider,
  };
}
