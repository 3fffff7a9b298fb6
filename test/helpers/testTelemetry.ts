import type { TelemetryConfig } from "../../src/telemetry/telemetry.js";

/** [telemetry] as tests and benchmarks turn it on: Prometheus on, no host or service labels. */
export const TEST_TELEMETRY: TelemetryConfig = {
  "service-name": "chain-rest",
  enabled: true,
  "enable-hostname": false,
  "enable-hostname-label": false,
  "enable-service-label": false,
  "prometheus-retention-time": 60,
  "global-labels": [],
};
