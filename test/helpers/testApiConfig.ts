import type { ApiConfig } from "../../src/config/appConfig.js";

/** [api] settings for a REST app that a test starts on a free loopback port. */
export function testApiConfig(overrides: Partial<ApiConfig> = {}): ApiConfig {
  return {
    enable: true,
    address: "tcp://127.0.0.1:0",
    swagger: true,
    "newer-routes": true,
    "max-open-connections": 100,
    "max-idle-connections": 1000,
    "rate-limit": 0,
    "rate-limit-burst": 0,
    "trusted-proxies": "",
    workers: 1,
    "rpc-read-timeout": 10,
    "rpc-write-timeout": 0,
    "rpc-max-body-bytes": 100_000,
    "enabled-unsafe-cors": false,
    "answer-cache-mb": 32,
    "log-requests": "off",
    "max-page-limit": 1000,
    "max-page-offset": 10_000,
    "max-count-total": 10_000,
    "disabled-routes": "",
    "route-weights": [],
    "cache-max-age": 0,
    ...overrides,
  };
}
