/**
 * The GitLab API version Quarry presents to clients (they gate features on it) and Quarry's own
 * build revision, injected at build time (tsup `define`) and "dev" otherwise.
 */
export const QUARRY_VERSION = "18.5.0";
declare const __QUARRY_REVISION__: string | undefined;
export const QUARRY_REVISION = typeof __QUARRY_REVISION__ === "string" ? __QUARRY_REVISION__ : "dev";
