export { startGateway, type GatewayOptions, type RunningGateway } from "./server.ts";
export { gatewayEnvShape, loadGatewayEnv } from "./env.ts";
export { QUARRY_REVISION, QUARRY_VERSION } from "./version.ts";
export { createApp } from "./app.ts";
