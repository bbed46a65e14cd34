import { serviceBundle } from "@quarry/tsconfig/tsup.service.mjs";
import { defineConfig } from "tsup";

// service-thread.js: the gateway's and repo-service's worker threads (src/threads.ts) load it next to main.js.
export default defineConfig({ ...serviceBundle, entry: ["src/main.ts", "src/service-thread.ts"] });
