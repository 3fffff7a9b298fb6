import { dump } from "js-yaml";
import type { HttpRule } from "./httpRules.js";

/**
 * A google.api.Service configuration with the gateway family's rules, as
 * grpc-gateway's grpc_api_configuration and Cloud Endpoints read it.
 */
export function serviceConfigYaml(rules: Map<string, HttpRule>): string {
  const config = { type: "google.api.Service", config_version: 3, http: { rules: [...rules.values()] } };
  return dump(config, { noRefs: true, lineWidth: -1 });
}
