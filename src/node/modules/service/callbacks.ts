import type { ModuleService, ServiceCallbacks } from "../nodeModule.js";

/**
 * The callbacks a module registers with the service keeper for the request contexts it creates
 * (irismod v1.3.1 keeper/invocation.go RegisterResponseCallback / RegisterStateCallback): the
 * response callback gets a completed batch's outputs (or the error of too few), the state callback
 * learns that a context was paused. The registry is filled where the node's modules are listed
 * (index.ts, from each module's `serviceCallbacks`), as the real app wires the keepers, so that
 * service imports neither oracle nor random.
 */
const registered = new Map<string, ServiceCallbacks>();

export function registerServiceCallbacks(moduleName: string, callbacks: ServiceCallbacks): void {
  registered.set(moduleName, callbacks);
}

export function serviceCallbacksOf(moduleName: string): ServiceCallbacks | undefined {
  return registered.get(moduleName);
}

const moduleServices = new Map<string, ModuleService>();

/** RegisterModuleService: a module's own service, by module name. */
export function registerModuleService(moduleName: string, service: ModuleService): void {
  moduleServices.set(moduleName, service);
}

export function moduleServiceOf(moduleName: string): ModuleService | undefined {
  return moduleServices.get(moduleName);
}

/** GetModuleServiceByServiceName: the module service of a service name, if a module answers it. */
export function moduleServiceNamed(serviceName: string): ModuleService | undefined {
  return [...moduleServices.values()].find((service) => service.serviceName === serviceName);
}
