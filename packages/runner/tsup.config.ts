import { serviceBundle } from "@quarry/tsconfig/tsup.service.mjs";
import { defineConfig } from "tsup";

// The command-line entry instead of a service's src/main.ts.
export default defineConfig({ ...serviceBundle, entry: ["src/cli.ts"] });
